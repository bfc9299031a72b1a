// The app as the browser suites (e2e, ui) serve it: built once into a folder of its own (not
// build/, so a build someone runs meanwhile cannot swap files under the browser) and reused by
// every later suite while it is newer than every source. OPALITE_APP_BUILD=always forces a build,
// =never skips it; OPALITE_APP_CACHE moves the folder (two sessions building at once). Keep it inside
// the project: the built server files resolve their packages from its node_modules.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from '../../server/compress';
import { contentTypeOf } from '../../server/preview';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = process.env.OPALITE_APP_CACHE ?? join(PROJECT_ROOT, 'node_modules', '.cache', 'opalite-app');
export const APP_BUILD_DIR = join(CACHE, 'build');
export const APP_KIT_DIR = join(CACHE, 'svelte-kit');

const SOURCES = ['src', 'static', 'svelte.config.js', 'vite.config.ts', 'scripts/app-worker-no-startup-throw.mjs', 'package.json', 'package-lock.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Compress the build's text files once, beside them: every browser test file starts a server of
 * its own, which would otherwise compress the whole app again (about 3 s of CPU) when its first
 * fresh context's worker installs.
 */
function precompressBuild(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) precompressBuild(path);
    else precompress(path, contentTypeOf(path));
  }
}

function buildIsFresh(): boolean {
  const marker = join(APP_BUILD_DIR, 'service-worker.js');
  if (!existsSync(marker) || !existsSync(join(APP_BUILD_DIR, 'index.html'))) return false;
  const built = statSync(marker).mtimeMs;
  return SOURCES.every((source) => newestMtime(join(PROJECT_ROOT, source)) < built);
}

/**
 * The project's tsconfig.json extends .svelte-kit/tsconfig.json, which SvelteKit writes only into
 * its own output folder: this build writes into APP_KIT_DIR, so on a fresh clone (where nothing
 * else ran SvelteKit yet) the file the tsconfig extends is missing and the build fails.
 */
function syncProjectTsconfig(): void {
  if (existsSync(join(PROJECT_ROOT, '.svelte-kit', 'tsconfig.json'))) return;
  const env = { ...process.env };
  delete env.OPALITE_KIT_DIR;
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', '@sveltejs', 'kit', 'svelte-kit.js'), 'sync'], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  });
  if (result.status !== 0) throw new Error(`svelte-kit sync failed:\n${result.stdout}\n${result.stderr}`);
}

/** Build the app unless a fresh build is there; `label` names the suite in the log line. */
export function ensureAppBuild(label: string): void {
  const mode = process.env.OPALITE_APP_BUILD ?? 'auto';
  if (mode === 'never' || (mode === 'auto' && buildIsFresh())) return;
  const started = Date.now();
  syncProjectTsconfig();
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: PROJECT_ROOT,
    // vitest sets NODE_ENV=test, which would make this a development build.
    env: { ...process.env, NODE_ENV: 'production', OPALITE_BUILD_DIR: APP_BUILD_DIR, OPALITE_KIT_DIR: APP_KIT_DIR },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  precompressBuild(APP_BUILD_DIR);
  console.log(`[${label}] built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// `tsx tests/support/app-build.ts`: build ahead of the suites (.ci/run does, while SQLite compiles).
if (process.argv[1] === fileURLToPath(import.meta.url)) ensureAppBuild('ahead');
