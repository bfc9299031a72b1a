// Bundle the sandbox worker (src/sandbox/sandbox-worker.ts) into one minified script, the file
// `npx opalite init` copies into another app: an IIFE with no imports or exports, so it runs as a
// module worker (how startSandbox() registers it) and as a classic one (an app's own worker may
// `importScripts` it). Four substitutions keep it small:
// - `@polkadot/wasm-crypto-init` → its `/none` entry (polkadot's supported no-wasm init): no
//   ~150 KiB gzipped of base64 wasm; util-crypto then runs its pure-JS verifiers (@scure, @noble).
// - zod's `locales/index.js` → English only: zod 4 exports every locale as `z.locales`, which
//   esbuild cannot shake; the ledger never reads them (zod's schemas import `en` directly).
// - `@polkadot/networks` → empty lists: its ss58 registry (~8 KiB gzipped) only feeds
//   util-crypto's `checkAddress` (known prefixes), which Opalite never calls; encoding and
//   decoding take any prefix.
// - `@unique-nft/schemas` → its ES module build (`index.mjs`, the same release): the package names
//   only its CommonJS `main`, which requires @unique-nft/utils' CommonJS files, while Opalite
//   imports utils as ES modules; the bundle carried both copies (about 4 KiB gzipped).
// And its libraries' start-up code throws nothing (scripts/no-startup-throw.mjs): under a test
// runner's debugger one caught error at top level cost 0.45 s of a fresh sandbox's start.
// Usage: node scripts/build-sandbox-worker.mjs [outFile]; also importable: buildSandboxWorker().
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { noStartupThrow } from './no-startup-throw.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUT_FILE = join(ROOT, 'dist', 'pkg', 'sandbox-worker.js');
const ENTRY = 'src/sandbox/sandbox-worker.ts';

/** The bundle's smaller substitutes (see the header). */
const slimDependencies = {
  name: 'opalite-slim-dependencies',
  setup(b) {
    b.onResolve({ filter: /^@polkadot\/wasm-crypto-init$/ }, (args) =>
      b.resolve('@polkadot/wasm-crypto-init/none', { kind: args.kind, resolveDir: args.resolveDir })
    );
    b.onResolve({ filter: /^@unique-nft\/schemas$/ }, (args) =>
      b.resolve('@unique-nft/schemas/index.mjs', { kind: args.kind, resolveDir: args.resolveDir })
    );
    b.onResolve({ filter: /^@polkadot\/networks$/ }, () => ({ path: 'polkadot-networks', namespace: 'opalite-slim' }));
    b.onLoad({ filter: /^polkadot-networks$/, namespace: 'opalite-slim' }, () => ({
      contents: 'export const allNetworks = []; export const availableNetworks = []; export const selectableNetworks = [];',
      loader: 'js'
    }));
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: 'js'
    }));
  }
};

/** Raw and gzipped size of `bytes`, in bytes. */
export function sizesOf(bytes) {
  return { raw: bytes.byteLength, gzip: gzipSync(bytes, { level: 9 }).byteLength };
}

export function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Build the worker into `outFile`; returns its path and sizes. */
export async function buildSandboxWorker({ outFile = DEFAULT_OUT_FILE, quiet = false } = {}) {
  const started = performance.now();
  // The worker tells startSandbox() this version, which refuses a worker of another one: it is
  // written into the file here, never read at run time (the copied file stands alone).
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    // The project's tsconfig extends SvelteKit's generated one, absent before `svelte-kit sync`.
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
    define: { __OPALITE_VERSION__: JSON.stringify(version), 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    plugins: [slimDependencies, noStartupThrow],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning'
  });
  const bytes = result.outputFiles[0].contents;
  const target = resolve(outFile);
  mkdirSync(dirname(target), { recursive: true });
  // Written beside its place and renamed over it: a server never sends half a worker.
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  writeFileSync(partial, bytes);
  renameSync(partial, target);
  const sizes = sizesOf(bytes);
  if (!quiet) {
    const where = relative(process.cwd(), target) || target;
    console.log(`Built ${where}: ${kib(sizes.raw)} raw, ${kib(sizes.gzip)} gzipped, in ${Math.round(performance.now() - started)} ms`);
  }
  return { outFile: target, ...sizes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildSandboxWorker({ outFile: process.argv[2] ?? DEFAULT_OUT_FILE });
