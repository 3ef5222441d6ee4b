import type { SandboxOptions } from './server';
import { startSandbox } from './server';

/**
 * The sandbox as the embedded service the shells hand to the core: on a free loopback port, its
 * data in the file the core names. `options` are for tests (shorter anchoring, faults).
 */
export function embeddedSandbox(options: SandboxOptions = {}) {
  return (dbPath: string) => startSandbox({ dbPath, port: 0, ...options });
}
