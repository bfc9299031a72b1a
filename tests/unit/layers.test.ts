// Layers point one way (docs/design.md): the codec knows nothing above it, the ledger stands on the
// codec alone, the API on both, and the app's client speaks the wire without importing the service
// it talks to. This reads every import of src/lib and fails on an arrow that points the wrong way.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const LIB = join(ROOT, 'src', 'lib');

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

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => ({ file, spec: m[1] }));
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

function target(imp: Import): string | null {
  if (imp.spec.startsWith('$lib/')) return join(LIB, imp.spec.slice(5));
  if (imp.spec.startsWith('.')) return resolve(dirname(imp.file), imp.spec);
  return null;
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

  it('the client wire types import nothing', () => {
    expect(importsOf(join(LIB, 'client', 'types.ts'))).toEqual([]);
  });
});
