import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const boundsSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number().min(400),
  height: z.number().min(300),
  maximized: z.boolean(),
});
export type WindowBounds = z.infer<typeof boundsSchema>;

const DEFAULT_BOUNDS = { width: 1100, height: 760 };

/** The window's last size and place, remembered in the data folder. */
export function loadWindowState(dataDir: string): Partial<WindowBounds> {
  try {
    return boundsSchema.parse(JSON.parse(readFileSync(join(dataDir, 'window-state.json'), 'utf8')));
  } catch {
    return DEFAULT_BOUNDS;
  }
}

export function saveWindowState(dataDir: string, bounds: WindowBounds): void {
  try {
    writeFileSync(join(dataDir, 'window-state.json'), JSON.stringify(bounds));
  } catch {
    // Not remembering a window size is no reason to fail quitting.
  }
}
