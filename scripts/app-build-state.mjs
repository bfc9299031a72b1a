// Is the app's build (`build/`) current? `npm start` rebuilds only when a file the build reads
// changed since the last one. The build records a fingerprint of its inputs (each file's path,
// size and modification time, hashed) beside its output; a later start compares.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What the app's build reads: the sources, static files, configuration and the installed packages. */
const INPUT_DIRS = ['src', 'static'];
const INPUT_FILES = ['svelte.config.js', 'vite.config.ts', 'scripts/app-worker-no-startup-throw.mjs', 'tsconfig.json', 'package.json', 'node_modules/.package-lock.json'];
/** Tests sit beside the sources but never reach the build. */
const NOT_AN_INPUT = /\.test\.ts$/;
const STAMP = '.opalite-build.json';

function* filesUnder(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile() && !NOT_AN_INPUT.test(entry.name)) yield path;
  }
}

/** A hash of every input's path, size and modification time (a deleted or renamed file changes it too). */
export function appBuildFingerprint(root) {
  const paths = [...INPUT_DIRS.flatMap((dir) => [...filesUnder(join(root, dir))]), ...INPUT_FILES.map((f) => join(root, f)).filter((p) => existsSync(p))];
  const hash = createHash('sha256');
  for (const path of paths.sort()) {
    const { size, mtimeMs } = statSync(path);
    hash.update(`${relative(root, path)}\t${size}\t${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** Does `buildDir` hold a complete build made from the inputs as they are now? */
export function isAppBuildCurrent(root, buildDir) {
  const stamp = join(buildDir, STAMP);
  if (!existsSync(join(buildDir, 'index.html')) || !existsSync(stamp)) return false;
  try {
    return JSON.parse(readFileSync(stamp, 'utf8')).fingerprint === appBuildFingerprint(root);
  } catch {
    return false; // unreadable stamp: build again
  }
}

/** After a successful build: remember what it was made from. */
export function recordAppBuild(buildDir, fingerprint) {
  writeFileSync(join(buildDir, STAMP), JSON.stringify({ fingerprint }));
}
