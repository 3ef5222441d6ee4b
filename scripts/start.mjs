// `npm start`: build, then open the app (on the embedded sandbox unless a profile is chosen).
import { spawn } from 'node:child_process';
import { WHY_NO_ELECTRON, electronBinary } from './electron-binary.mjs';

const binary = electronBinary();
if (!binary) {
  process.stderr.write(
    `${WHY_NO_ELECTRON}\nWithout a display or Electron, the same core runs from the command line: npm run cli -- --help\n`,
  );
  process.exit(1);
}
await import('./build.mjs');
const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
