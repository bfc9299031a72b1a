// Layers point one way (docs/design.md): the codec knows nothing above it, the ledger stands on the
// codec alone, the API on both, and the app's client speaks the wire without importing the service
// it talks to. This reads every import of src/lib and fails on an arrow that points the wrong way,
// on a circle of imports anywhere in src/, and on src/lib reaching into the Node host (server/).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const LIB = join(ROOT, 'src', 'lib');
const ROUTES = join(ROOT, 'src', 'routes');
const SRC = join(ROOT, 'src');
const SERVER = join(ROOT, 'server');

/** The folders of src/lib a layer may import from (its own is always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  limits: [],
  codec: ['limits'],
  ledger: ['codec', 'limits'],
  storage: ['ledger', 'codec', 'limits'],
  api: ['ledger', 'codec', 'limits'],
  host: ['api', 'ledger', 'codec', 'limits'],
  client: ['codec', 'limits']
};

/** Packages a layer must not import: the ledger and codec run anywhere (no DOM, Svelte or IndexedDB). */
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  codec: /^(svelte|dexie|better-sqlite3|hono|@sveltejs)/,
  ledger: /^(svelte|dexie|better-sqlite3|hono|@sveltejs)/,
  api: /^(svelte|dexie|better-sqlite3|@sveltejs)/,
  client: /^(svelte|dexie|better-sqlite3|hono|@sveltejs)/
};

interface Import {
  file: string;
  spec: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every .ts and .svelte file below `dir`, tests and test helpers included. */
function everyFile(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return everyFile(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

/** Static and literal dynamic imports; `^\s*` because .svelte files indent their <script>. */
function parseImports(file: string, text: string): Import[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => ({ file, spec: m[1] }));
}

/** Dynamic imports whose target cannot be read (template literal or variable) hide their arrow. */
function parseOpaqueImports(file: string, text: string): string[] {
  return [...text.matchAll(/\bimport\s*\(\s*([^'"\s)][^)]*)\)/g)].map((m) => `${relative(ROOT, file)} imports (${m[1].trim()})`);
}

function importsOf(file: string): Import[] {
  return parseImports(file, readFileSync(file, 'utf8'));
}


/** The src/lib layer a path is in: its first folder, or the module's name at the root of src/lib. */
function layerOf(path: string): string {
  return relative(LIB, path).split(sep)[0].replace(/(\.svelte)?\.ts$/, '');
}

/** A layer's source files: a folder's, or the one module `src/lib/<layer>.ts`. */
function filesOf(layer: string): string[] {
  const module = join(LIB, `${layer}.ts`);
  return existsSync(module) ? [module] : sourceFiles(join(LIB, layer));
}

/** SvelteKit's virtual modules tie code to the app; the layers below it run in any host. */
const SVELTEKIT_MODULE = /^(\$app\/|\$env\/|\$service-worker)/;
const NO_SVELTEKIT = ['codec', 'ledger', 'api', 'storage', 'limits'];
/** Layers that must not reach outside src/lib at all (e.g. ../../routes). */
const LIB_ONLY = ['codec', 'ledger'];
const NO_OPAQUE_DYNAMIC = ['codec', 'ledger', 'api'];

/** The UI is a REST client: it reaches the service through the API over fetch, never around it. */
const UI_FORBIDDEN = ['ledger', 'api', 'storage', 'host'];
/** Explicit exceptions to UI_FORBIDDEN, each `file (relative to ROOT) -> spec` with its reason. */
const UI_EXCEPTIONS: Record<string, string> = {};

function relativeTo(file: string): string {
  return relative(ROOT, file);
}

function target(imp: Import): string | null {
  if (imp.spec.startsWith('$lib/')) return join(LIB, imp.spec.slice(5));
  if (imp.spec.startsWith('.')) return resolve(dirname(imp.file), imp.spec);
  return null;
}

/** A relative or $lib target that resolves outside src/lib. */
function outsideLib(imp: Import): boolean {
  const to = target(imp);
  return to !== null && !to.startsWith(LIB + sep);
}

/** The file an import names (`./x` may be x.ts, x.svelte.ts, x/index.ts …), or null for a package. */
function resolvedFile(imp: Import): string | null {
  const to = target(imp);
  if (!to) return null;
  const candidates = [to, `${to}.ts`, to.replace(/\.js$/, '.ts'), join(to, 'index.ts')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

/** The files `file` imports from src/ (packages and SvelteKit's virtual modules left out). */
function importedFiles(file: string): string[] {
  return importsOf(file)
    .map(resolvedFile)
    .filter((to): to is string => to !== null);
}

/** Each circle of imports among `files` (Tarjan's strongly connected components), as its files. */
function importCircles(files: readonly string[], importedBy: (file: string) => string[] = importedFiles): string[][] {
  const edges = new Map(files.map((file) => [file, importedBy(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member.startsWith(ROOT) ? relativeTo(member) : member);
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

/** The UI, the app state and the bridge take their transport from the state layer, never from the browser host. */
function browserHostImport(imp: Import): string[] {
  const to = target(imp);
  return to && to.startsWith(LIB + sep) && layerOf(to) === 'browser' ? [`${relativeTo(imp.file)} -> ${imp.spec}`] : [];
}

/** src/lib runs in every host; the Node host (server/) stands on it, never the other way. */
function serverImport(imp: Import): string[] {
  const to = target(imp);
  return to && (to === SERVER || to.startsWith(SERVER + sep)) ? [`${relativeTo(imp.file)} -> ${imp.spec}`] : [];
}

function uiViolation(imp: Import): string[] {
  const to = target(imp);
  if (!to || !to.startsWith(LIB + sep) || !UI_FORBIDDEN.includes(layerOf(to))) return [];
  const key = `${relativeTo(imp.file)} -> ${imp.spec}`;
  return key in UI_EXCEPTIONS ? [] : [key];
}

describe('layers point one way', () => {
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    it(`${layer} imports only from ${allowed.length ? allowed.join(', ') : 'nothing in src/lib'}`, () => {
      const files = filesOf(layer);
      expect(files.length).toBeGreaterThan(0);
      const wrong = files
        .flatMap(importsOf)
        .flatMap((imp) => {
          const to = target(imp);
          if (!to || !to.startsWith(LIB)) return [];
          const toLayer = layerOf(to);
          return toLayer === layer || allowed.includes(toLayer) ? [] : [`${relative(ROOT, imp.file)} imports ${imp.spec}`];
        });
      expect(wrong).toEqual([]);
    });
  }

  for (const [layer, forbidden] of Object.entries(FORBIDDEN_PACKAGES)) {
    it(`${layer} imports no ${forbidden.source}`, () => {
      const wrong = filesOf(layer)
        .flatMap(importsOf)
        .filter((imp) => !imp.spec.startsWith('.') && !imp.spec.startsWith('$') && forbidden.test(imp.spec))
        .map((imp) => `${relative(ROOT, imp.file)} imports ${imp.spec}`);
      expect(wrong).toEqual([]);
    });
  }

  for (const layer of NO_SVELTEKIT) {
    it(`${layer} imports no SvelteKit module ($app, $env, $service-worker)`, () => {
      const wrong = filesOf(layer)
        .flatMap(importsOf)
        .filter((imp) => SVELTEKIT_MODULE.test(imp.spec))
        .map((imp) => `${relativeTo(imp.file)} imports ${imp.spec}`);
      expect(wrong).toEqual([]);
    });
  }

  for (const layer of LIB_ONLY) {
    it(`${layer} imports nothing outside src/lib`, () => {
      const wrong = filesOf(layer)
        .flatMap(importsOf)
        .filter((imp) => outsideLib(imp))
        .map((imp) => `${relativeTo(imp.file)} imports ${imp.spec}`);
      expect(wrong).toEqual([]);
    });
  }

  for (const layer of NO_OPAQUE_DYNAMIC) {
    it(`${layer} has no dynamic import with a computed target`, () => {
      const wrong = filesOf(layer).flatMap((file) => parseOpaqueImports(file, readFileSync(file, 'utf8')));
      expect(wrong).toEqual([]);
    });
  }

  it('ui, state and routes never import ledger, api, storage or host', () => {
    const files = [...sourceFiles(join(LIB, 'ui')), ...sourceFiles(join(LIB, 'state')), ...sourceFiles(ROUTES)];
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap(importsOf).flatMap(uiViolation)).toEqual([]);
  });

  it('ui, state, connect and routes never import the browser host (src/lib/browser)', () => {
    const files = [...sourceFiles(join(LIB, 'ui')), ...sourceFiles(join(LIB, 'state')), ...sourceFiles(join(LIB, 'connect')), ...sourceFiles(ROUTES)];
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap(importsOf).flatMap(browserHostImport)).toEqual([]);
  });

  it('every database opens Dexie through storage/dexie (its debug mode off on localhost)', () => {
    const wrong = everyFile(SRC)
      .filter((file) => !/\.test\.ts$/.test(file) && file !== join(LIB, 'storage', 'dexie.ts'))
      .flatMap(importsOf)
      .filter((imp) => imp.spec === 'dexie')
      .map((imp) => relativeTo(imp.file));
    expect(wrong).toEqual([]);
  });

  it('no circle of imports anywhere in src/', () => {
    expect(importCircles(everyFile(SRC))).toEqual([]);
  });

  it('nothing in src/lib (tests and test helpers included) imports server/', () => {
    expect(everyFile(LIB).flatMap(importsOf).flatMap(serverImport)).toEqual([]);
  });

  it('the checker itself catches the wrong arrows it is meant to', () => {
    const svelte = join(LIB, 'ui', 'X.svelte');
    const ledger = join(LIB, 'ledger', 'x.ts');
    const indented = parseImports(svelte, "<script>\n  import '$lib/ledger/side-effect';\n</script>");
    expect(indented.flatMap(uiViolation)).toHaveLength(1);
    expect(parseOpaqueImports(ledger, 'const m = await import(`./${name}`);')).toHaveLength(1);
    expect(parseOpaqueImports(ledger, 'const m = await import(path);')).toHaveLength(1);
    expect(parseOpaqueImports(ledger, "const m = await import('./fixed');")).toHaveLength(0);
    expect(parseImports(ledger, "import { browser } from '$app/environment';").filter((i) => SVELTEKIT_MODULE.test(i.spec))).toHaveLength(1);
    expect(parseImports(ledger, "import { x } from '../../routes/+page';").filter(outsideLib)).toHaveLength(1);
    expect(parseImports(ledger, "import { x } from '../codec/y';").filter(outsideLib)).toHaveLength(0);
    expect(parseImports(join(LIB, 'state', 'x.ts'), "import { apiFetch } from '../browser/api';").flatMap(browserHostImport)).toHaveLength(1);
    expect(parseImports(join(LIB, 'state', 'x.ts'), "import { apiFetch } from './transport';").flatMap(browserHostImport)).toHaveLength(0);
    expect(parseImports(join(LIB, 'storage', 'x.ts'), "import { s } from '../../../server/storage/sqlite-store';").flatMap(serverImport)).toHaveLength(1);
    expect(parseImports(join(LIB, 'storage', 'x.ts'), "import { s } from '../../server-side';").flatMap(serverImport)).toHaveLength(0);
  });

  it('the circle finder finds circles (and a file importing itself), none in a chain, and resolves real imports', () => {
    const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['d'], e: ['f'], f: [] };
    expect(importCircles(Object.keys(graph), (file) => graph[file])).toEqual([['a', 'b', 'c'], ['d']]);
    expect(importCircles(['e', 'f'], (file) => graph[file])).toEqual([]);
    const table = join(LIB, 'api', 'routes', 'index.ts');
    expect(resolvedFile({ file: table, spec: './balance' })).toBe(join(LIB, 'api', 'routes', 'balance.ts'));
    expect(resolvedFile({ file: join(LIB, 'state', 'x.ts'), spec: './settings.svelte' })).toBe(join(LIB, 'state', 'settings.svelte.ts'));
    expect(resolvedFile({ file: join(LIB, 'ui', 'x.svelte'), spec: '$lib/ui/HostStatus.svelte' })).toBe(join(LIB, 'ui', 'HostStatus.svelte'));
    expect(resolvedFile({ file: table, spec: 'zod' })).toBeNull();
  });

  it('the client wire types import nothing', () => {
    expect(importsOf(join(LIB, 'client', 'types.ts'))).toEqual([]);
  });
});
