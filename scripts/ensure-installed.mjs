#!/usr/bin/env node
// Install the project's packages when node_modules is missing (a fresh clone), so `npm start` and
// `npm test` work as the first command on a new machine. Plain JavaScript: it runs before anything
// is installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Run a command in the project folder; exit with its status if it fails (unless `soft`). */
export function run(command, args, { soft = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0 && !soft) {
    console.error(`\`${command} ${args.join(' ')}\` failed${result.status === null ? ` (${result.signal})` : ` with exit code ${result.status}`}`);
    process.exit(result.status ?? 1);
  }
  return result.status === 0;
}

export function ensureInstalled() {
  if (existsSync(join(root, 'node_modules', '.package-lock.json'))) return;
  // With a lock file: exactly the locked packages (`npm ci` never rewrites the lock). Without one
  // (an unusual checkout): `npm install` resolves from package.json.
  const locked = existsSync(join(root, 'package-lock.json'));
  console.log(`node_modules is missing: installing ${locked ? 'the locked packages' : 'the packages'}`);
  run(npm, [locked ? 'ci' : 'install', '--no-audit', '--no-fund']);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstalled();
