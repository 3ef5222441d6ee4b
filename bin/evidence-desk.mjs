#!/usr/bin/env node
// Runs the CLI from source: registers the TypeScript loader, then hands over.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli.ts');
