// `evidence-desk`: the command line as a program (the bundle's entry, and `npm run cli` from source).
// The command line itself is loaded once V8 keeps what it compiles: imported with this file, it
// would be compiled before the cache was on.
import { keepCompiledCode } from './config/compile-cache';

keepCompiledCode();
void import('./cli')
  .then(({ runCommandLine }) => runCommandLine(process.argv.slice(2)))
  .then((code) => {
    if (code !== undefined) process.exitCode = code;
  });
