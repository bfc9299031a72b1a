// `npm run serve`: the Node host from compiled JavaScript (dist/server/main.js), built first when
// missing or older than any of its sources (esbuild, about a second). Plain Node, no dev tools.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'dist', 'server', 'main.js');
const meta = join(root, 'dist', 'server', 'meta.json');

/** When any of these is newer than the build (or gone), build again. */
function sources() {
  const { inputs } = JSON.parse(readFileSync(meta, 'utf8'));
  const own = inputs.filter((input) => !input.startsWith('node_modules/'));
  // Dependencies change together with npm's record of the installed tree: one file, not hundreds.
  const installed = 'node_modules/.package-lock.json';
  return existsSync(join(root, installed)) ? [...own, installed] : inputs;
}

/** Is the build missing, or is any file it was built from newer (or gone)? */
function stale() {
  const built = statSync(meta, { throwIfNoEntry: false });
  if (!built || !existsSync(main)) return true;
  return sources().some((input) => {
    const source = statSync(join(root, input), { throwIfNoEntry: false });
    return !source || source.mtimeMs > built.mtimeMs;
  });
}

if (stale()) {
  // Loaded only when needed: a fresh build starts without esbuild.
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}
await import(pathToFileURL(main).href);
