import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer only: it is loaded from disk by Electron, so assets use relative paths.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome140',
  },
});
