// `evidence-desk`: the command line as a program (the bundle's entry, and `npm run cli` from source).
import { runCommandLine } from './cli';

void runCommandLine(process.argv.slice(2)).then((code) => {
  if (code !== undefined) process.exitCode = code;
});
