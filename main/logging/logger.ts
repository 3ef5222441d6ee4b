import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, event: string, fields?: Record<string, unknown>): void;
}

/**
 * One JSON object a line, in the file a support person is pointed to. Callers pass facts
 * (ids, codes, counts), never secrets: nothing here knows a secret to leak.
 */
export function fileLogger(path: string): Logger {
  mkdirSync(dirname(path), { recursive: true });
  return {
    log(level, event, fields = {}) {
      try {
        appendFileSync(
          path,
          `${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`,
        );
      } catch {
        // A full or read-only disk must not stop certification; the log is best effort.
      }
    },
  };
}

export const silentLogger: Logger = { log: () => undefined };
