// Build the app once for the whole e2e run, into a folder of its own (E2E_BUILD_DIR, not
// build/), so a build someone else runs meanwhile cannot swap files under the browser. A build
// newer than every source is reused (OPALITE_E2E_BUILD=always forces a build, =never skips it).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_BUILD_DIR, E2E_KIT_DIR, PROJECT_ROOT as root } from './paths';

const output = join(E2E_BUILD_DIR, 'service-worker.js');
const SOURCES = ['src', 'static', 'svelte.config.js', 'vite.config.ts', 'package.json', 'package-lock.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function buildIsFresh(): boolean {
  if (!existsSync(output) || !existsSync(join(E2E_BUILD_DIR, 'index.html'))) return false;
  const built = statSync(output).mtimeMs;
  return SOURCES.every((source) => newestMtime(join(root, source)) < built);
}

export default function setup(): void {
  const mode = process.env.OPALITE_E2E_BUILD ?? 'auto';
  if (mode === 'never' || (mode === 'auto' && buildIsFresh())) return;
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    // NODE_ENV: vitest sets it to `test`, which would make this a development build.
    env: { ...process.env, NODE_ENV: 'production', OPALITE_BUILD_DIR: E2E_BUILD_DIR, OPALITE_KIT_DIR: E2E_KIT_DIR },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  console.log(`[e2e] built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
