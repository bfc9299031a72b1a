// `npm run build:package` (and `npm pack`'s prepack): everything the published `opalite` package
// runs, none of it needing this repository or a devDependency at run time:
// - dist/server/            the Node host `opalite serve` runs (build-server.mjs)
// - dist/pkg/node.js, testing.js (+ verify-worker.js and shared chunks): platform node, every
//   dependency bundled but better-sqlite3 (a native addon, a dependency of the package)
// - dist/pkg/browser.js, connect.js: platform browser, everything bundled
// - dist/pkg/sandbox-worker.js: the worker `opalite init` copies (build-sandbox-worker.mjs)
// - dist/pkg/<entry>.d.ts: declarations of each entry, checked to name no internal module
// Built into a scratch folder and swapped in whole, so dist/pkg never holds half a build.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { noStartupThrow } from './no-startup-throw.mjs';
import { buildSandboxWorker } from './build-sandbox-worker.mjs';
import { buildServer, ROOT } from './build-server.mjs';

export const PKG_DIR = join(ROOT, 'dist', 'pkg');

/** The entries `package.json` exports, by platform. */
export const ENTRIES = [
  { name: 'node', source: 'src/pkg/node.ts', platform: 'node' },
  { name: 'testing', source: 'src/pkg/testing.ts', platform: 'node' },
  { name: 'browser', source: 'src/pkg/browser.ts', platform: 'browser' },
  { name: 'connect', source: 'src/pkg/connect.ts', platform: 'browser' }
];

// The project's tsconfig extends SvelteKit's generated one, absent before `svelte-kit sync`.
const tsconfigRaw = { compilerOptions: { useDefineForClassFields: true } };

/** One esbuild run per platform: entries sharing code share chunks (not minified: readable in a debugger). */
async function bundle(entries, platform, outdir) {
  const entryPoints = Object.fromEntries(entries.map((e) => [e.name, e.source]));
  const node = platform === 'node';
  // The host checks signatures on worker threads started from ./verify-worker.js beside its code.
  if (node) entryPoints['verify-worker'] = 'server/verify-worker.ts';
  await build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform,
    target: node ? 'node20' : 'es2022',
    external: node ? ['better-sqlite3'] : [],
    // CommonJS dependencies inside an ES module bundle still call require() for Node built-ins.
    banner: node ? { js: "import { createRequire as __opaliteRequire } from 'node:module'; const require = __opaliteRequire(import.meta.url);" } : {},
    define: node ? {} : { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    plugins: node ? [] : [noStartupThrow],
    tsconfigRaw,
    chunkNames: 'chunk-[hash]',
    minify: true,
    keepNames: true,
    legalComments: 'eof',
    logLevel: 'warning'
  });
}

/** Does a declaration file import anything a consumer would not have? Returns the offending specifiers. */
export function foreignImports(dts, shipped) {
  const code = dts.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, ''); // examples in doc comments import freely
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]);
  return specifiers.filter((s) => {
    if (s.startsWith('node:')) return false;
    const sibling = /^\.\/([\w-]+?)(?:\.js)?$/.exec(s);
    return !(sibling && shipped.has(sibling[1]));
  });
}

/** Each entry's declarations (TypeScript's API, one entry at a time: internal modules emit nothing). */
async function declarations(entries, outdir) {
  const ts = (await import('typescript')).default;
  const configPath = join(ROOT, 'tsconfig.package.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')) });
  if (parsed.errors.length > 0) fail(`tsconfig.package.json: ${parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`);
  const options = { ...parsed.options, outDir: outdir, noEmit: false, declaration: true, emitDeclarationOnly: true, declarationMap: false, sourceMap: false };
  const program = ts.createProgram({ rootNames: entries.map((e) => join(ROOT, e.source)), options });
  const shipped = new Set(entries.map((e) => e.name));
  const problems = [];
  const report = (diagnostics) => {
    for (const d of diagnostics) {
      const where = d.file ? `${relative(ROOT, d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}): ` : '';
      problems.push(`${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
  };
  for (const entry of entries) {
    const file = program.getSourceFile(join(ROOT, entry.source));
    report([...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]);
    let text = null;
    const result = program.emit(file, (_name, data) => (text = data), undefined, true);
    report(result.diagnostics);
    if (text === null) {
      problems.push(`${entry.source}: no declarations were emitted`);
      continue;
    }
    const foreign = foreignImports(text, shipped);
    if (foreign.length > 0) {
      problems.push(`${entry.source}: its public types import ${foreign.map((s) => `"${s}"`).join(', ')}, which the package does not ship; declare those types in the entry itself`);
    }
    writeFileSync(join(outdir, `${entry.name}.d.ts`), text);
  }
  if (problems.length > 0) fail(`declarations:\n  ${problems.join('\n  ')}`);
}

function fail(message) {
  throw new Error(`build:package: ${message}`);
}

function sizeOf(dir) {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

export async function buildPackage({ quiet = false } = {}) {
  const started = performance.now();
  const say = (line) => quiet || console.log(line);

  await buildServer({ quiet: true });
  say('Built dist/server/ (the host `opalite serve` runs)');

  const staging = join(ROOT, 'dist', `.pkg-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    for (const platform of ['node', 'browser']) await bundle(ENTRIES.filter((e) => e.platform === platform), platform, staging);
    await buildSandboxWorker({ outFile: join(staging, 'sandbox-worker.js'), quiet: true });
    await declarations(ENTRIES, staging);
    // The old build moved aside, the new one moved in: dist/pkg is missing only between two renames.
    const previous = `${staging}-previous`;
    if (existsSync(PKG_DIR)) renameSync(PKG_DIR, previous);
    renameSync(staging, PKG_DIR);
    rmSync(previous, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const kib = Math.round(sizeOf(PKG_DIR) / 1024);
  say(`Built dist/pkg/ (${ENTRIES.map((e) => e.name).join(', ')}, sandbox-worker; ${kib} KiB) in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildPackage().catch((error) => {
    console.error(error instanceof Error && error.message.startsWith('build:package:') ? error.message : error);
    process.exit(1);
  });
}
