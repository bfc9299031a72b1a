// Build the app once for the whole e2e run. A build newer than every source is reused
// (OPALITE_E2E_BUILD=always forces a build, =never skips it).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const output = join(root, 'build', 'service-worker.js');
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
  if (!existsSync(output) || !existsSync(join(root, 'build', 'index.html'))) return false;
  const built = statSync(output).mtimeMs;
  return SOURCES.every((source) => newestMtime(join(root, source)) < built);
}

export default function setup(): void {
  const mode = process.env.OPALITE_E2E_BUILD ?? 'auto';
  if (mode === 'never' || (mode === 'auto' && buildIsFresh())) return;
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  console.log(`[e2e] built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
