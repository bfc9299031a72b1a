// Compile the Node host (server/main.ts and its signature-check worker) into dist/server/ with
// esbuild: one ES module per entry, every dependency bundled except better-sqlite3 (a native
// addon, loaded from node_modules). `npm run serve` runs the result with plain Node, so no
// TypeScript tooling (a devDependency) is needed at run time. Also importable: buildServer().
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(ROOT, 'dist', 'server');
/** Every input of the last build (esbuild's metafile), so serve.mjs can tell when it is stale. */
export const META_FILE = join(OUT_DIR, 'meta.json');

export async function buildServer({ quiet = false } = {}) {
  const started = performance.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'server/main.ts', 'verify-worker': 'server/verify-worker.ts' },
    outdir: OUT_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // CommonJS dependencies inside an ES module bundle still call require() for Node built-ins.
    banner: { js: "import { createRequire as __opaliteRequire } from 'node:module'; const require = __opaliteRequire(import.meta.url);" },
    // The project's tsconfig extends SvelteKit's generated one, absent before `svelte-kit sync`.
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
    // No keepNames: it wraps every function made at run time in a defineProperty of its name (each
    // request's closures, Hono's context fields), a few per cent of a request's CPU; the source
    // map names them.
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning'
  });
  mkdirSync(OUT_DIR, { recursive: true });
  // Each file written beside its place and renamed over it: a host starting meanwhile (or a
  // second build) never reads half a file. The metafile last: it marks the build complete.
  const files = [...result.outputFiles.map((f) => [f.path, f.contents]), [META_FILE, JSON.stringify({ inputs: Object.keys(result.metafile.inputs) })]];
  for (const [path, contents] of files) {
    const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
    writeFileSync(partial, contents);
    renameSync(partial, path);
  }
  if (!quiet) console.log(`Built ${relative(ROOT, OUT_DIR)}/main.js in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
