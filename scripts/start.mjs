#!/usr/bin/env node
// `npm start`: install (when node_modules is missing), build, and serve the app at
// http://127.0.0.1:${PORT:-4173}/ with server/preview.ts. Plain JavaScript so it runs before
// anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`\`${command} ${args.join(' ')}\` failed${result.status === null ? ` (${result.signal})` : ` with exit code ${result.status}`}`);
    process.exit(result.status ?? 1);
  }
}

if (!existsSync(join(root, 'node_modules'))) {
  console.log('node_modules is missing: npm ci');
  run(npm, ['ci', '--no-audit', '--no-fund']);
}

run(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);

// server/preview.ts is TypeScript: load it through tsx (a dev dependency, installed by npm ci).
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../server/preview.ts');
await main();
