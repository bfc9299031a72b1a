// Build the app once for the UI tests (OPALITE_UI_BUILD=always forces it, =never skips it; by
// default a build newer than every source is reused).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT as root, UI_BUILD_DIR, UI_KIT_DIR } from './paths';

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
  const marker = join(UI_BUILD_DIR, 'service-worker.js');
  if (!existsSync(marker) || !existsSync(join(UI_BUILD_DIR, 'index.html'))) return false;
  const built = statSync(marker).mtimeMs;
  return SOURCES.every((source) => newestMtime(join(root, source)) < built);
}

export default function setup(): void {
  const mode = process.env.OPALITE_UI_BUILD ?? 'auto';
  if (mode === 'never' || (mode === 'auto' && buildIsFresh())) return;
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    // vitest sets NODE_ENV=test, which would make this a development build.
    env: { ...process.env, NODE_ENV: 'production', OPALITE_BUILD_DIR: UI_BUILD_DIR, OPALITE_KIT_DIR: UI_KIT_DIR },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  console.log(`[ui] built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
