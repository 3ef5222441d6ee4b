// Loaded with --import into a CLI run whose memory a test holds to a cap: at exit, the process's
// peak resident set (kilobytes) goes to the file PEAK_MEMORY_FILE names. Read from VmHWM, which
// starts afresh at exec: resourceUsage().maxRSS keeps the forking test runner's own peak on Linux.
import { readFileSync, writeFileSync } from 'node:fs';

process.on('exit', () => {
  const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  writeFileSync(process.env.PEAK_MEMORY_FILE, peak ?? String(process.resourceUsage().maxRSS));
});
