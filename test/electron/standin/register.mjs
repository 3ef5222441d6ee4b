// `node --import ./register.mjs dist/main/main.js`: the built shell, on the stand-in electron.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
