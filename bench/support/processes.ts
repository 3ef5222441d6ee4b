import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { benchScript } from './bench-scripts';

export interface Served<T> {
  info: T;
  stop(): Promise<void>;
}

/** Starts a server script in its own process and reads the JSON line it prints when ready. */
export async function serve<T>(script: 'serve-sandbox' | 'serve-empty'): Promise<Served<T>> {
  const child = spawn(process.execPath, [benchScript(script)], {
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

/** Removes a folder in a process of its own, while this one's thread is busy; resolves once it is gone. */
export function removeBeside(folder: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', folder],
    { stdio: 'inherit' },
  );
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`removing ${folder} exited with ${String(code)}`)),
    ),
  );
}
