#!/usr/bin/env node
// `npm start`: install (when node_modules is missing), build (when a source changed since the
// last build), and serve the app at http://127.0.0.1:${PORT:-4173}/ with server/preview.ts.
// Plain JavaScript so it runs before anything is installed.
import { join } from 'node:path';
import { appBuildFingerprint, isAppBuildCurrent, recordAppBuild } from './app-build-state.mjs';
import { ensureInstalled, root, run } from './ensure-installed.mjs';

ensureInstalled();

const buildDir = join(root, 'build');
if (isAppBuildCurrent(root, buildDir)) {
  console.log('The app is built and no source changed since: serving build/ (delete it to force a rebuild)');
} else {
  // Taken before the build: a file edited while it runs makes the next start build again.
  const fingerprint = appBuildFingerprint(root);
  run(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);
  recordAppBuild(buildDir, fingerprint);
}

// server/preview.ts is TypeScript: load it through tsx (a dev dependency, installed by npm ci).
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../server/preview.ts');
await main();
