import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

export interface Served<T> {
  info: T;
  stop(): Promise<void>;
}

/** Starts a TypeScript server script in its own process and reads the JSON line it prints when ready. */
export async function serve<T>(script: string): Promise<Served<T>> {
  const child = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), [script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
  });
  return {
    info,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
