#!/usr/bin/env node
// `npm start`: install (when node_modules is missing), build, and serve the app at
// http://127.0.0.1:${PORT:-4173}/ with server/preview.ts. Plain JavaScript so it runs before
// anything is installed.
import { join } from 'node:path';
import { ensureInstalled, root, run } from './ensure-installed.mjs';

ensureInstalled();

run(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);

// server/preview.ts is TypeScript: load it through tsx (a dev dependency, installed by npm ci).
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../server/preview.ts');
await main();
