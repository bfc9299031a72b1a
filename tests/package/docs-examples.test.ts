// docs/package.md as its reader uses it, against the packed tarball installed into a project of its
// own: every `js run` block runs with Node (each checks its own results with node:assert), every
// `ts check` block compiles against the shipped declarations, and every name an entry's
// declarations export is documented in that entry's section. So the document cannot drift.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirectory } from '../contract/durability/child-host';
import { installPacked, REPO_ROOT } from './tarball';

const run = promisify(execFile);
const DOC = readFileSync(join(REPO_ROOT, 'docs', 'package.md'), 'utf8');
const ENTRIES = ['node', 'testing', 'browser', 'connect'] as const;
const project = tempDirectory('opalite-docs-');

interface Example {
  tag: 'js run' | 'ts check';
  line: number;
  code: string;
}

/** The fenced blocks tagged for testing, with the line each starts on. */
function examplesOf(markdown: string): Example[] {
  return [...markdown.matchAll(/^```(js run|ts check)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => ({
    tag: m[1] as Example['tag'],
    line: markdown.slice(0, m.index).split('\n').length,
    code: m[2]
  }));
}

/** The names a declaration file exports (declarations and `export { a, b as c }` lists). */
function exportedNames(dts: string): string[] {
  const declared = [...dts.matchAll(/^export\s+(?:declare\s+)?(?:abstract\s+)?(?:function|const|let|class|interface|type|enum)\s+(\w+)/gm)].map((m) => m[1]);
  const listed = [...dts.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap((m) =>
    m[1].split(',').map((part) => part.trim().split(/\s+as\s+/).pop()!.replace(/^type\s+/, '')).filter(Boolean)
  );
  return [...new Set([...declared, ...listed])];
}

/** The part of the document under `## \`opalite/<entry>\``, up to the next `## `. */
function sectionOf(entry: string): string {
  const start = DOC.indexOf(`\n## \`opalite/${entry}\``);
  if (start < 0) return '';
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end < 0 ? undefined : end);
}

const examples = examplesOf(DOC);
const runnable = examples.filter((e) => e.tag === 'js run');
const typed = examples.filter((e) => e.tag === 'ts check');

beforeAll(async () => {
  writeFileSync(join(project.dir, 'package.json'), JSON.stringify({ name: 'docs-reader', private: true, type: 'module' }));
  await installPacked(project.dir);
});
afterAll(() => project.remove());

describe('docs/package.md', () => {
  it('has runnable and type-checked examples, and the README links it', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(8);
    expect(typed.length).toBeGreaterThanOrEqual(8);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('(docs/package.md)');
  });

  it('finds tagged blocks and exported names as the checks below read them', () => {
    expect(examplesOf('a\n```js run\nx();\n```\n```ts\nnot();\n```\n```ts check\ny;\n```\n')).toEqual([
      { tag: 'js run', line: 2, code: 'x();\n' },
      { tag: 'ts check', line: 8, code: 'y;\n' }
    ]);
    const dts = 'export declare function f(): void;\nexport interface I {}\nexport type { A, B as C } from "./x";\nexport { D as E, type F };\ndeclare const hidden: 1;\n';
    expect(exportedNames(dts).sort()).toEqual(['A', 'C', 'E', 'F', 'I', 'f']);
  });

  for (const entry of ENTRIES) {
    it(`documents every export of opalite/${entry} in its section`, () => {
      const dts = readFileSync(join(project.dir, 'node_modules', 'opalite', 'dist', 'pkg', `${entry}.d.ts`), 'utf8');
      const names = exportedNames(dts);
      expect(names.length).toBeGreaterThan(3);
      const section = sectionOf(entry);
      expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(section))).toEqual([]);
    });
  }

  for (const [index, example] of runnable.entries()) {
    it(`runs the js example at line ${example.line} with Node`, async () => {
      const file = `doc-example-${index}.mjs`;
      writeFileSync(join(project.dir, file), example.code);
      const { stdout, stderr } = await run(process.execPath, [file], { cwd: project.dir, timeout: 135_000 }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`docs/package.md line ${example.line}: ${error.message}\n${error.stderr ?? ''}${error.stdout ?? ''}`);
      });
      expect(stderr).toBe('');
      void stdout;
    });
  }

  it('compiles every ts example against the shipped declarations (strict, with the DOM)', async () => {
    const files = typed.map((example, index) => {
      const file = `doc-check-${index}.ts`;
      writeFileSync(join(project.dir, file), example.code);
      return file;
    });
    // skipLibCheck: the examples are judged here; the declarations have their own test (testing.test.ts).
    const compilerOptions = { noEmit: true, strict: true, target: 'es2022', lib: ['es2022', 'dom', 'dom.iterable'], module: 'esnext', moduleResolution: 'bundler', types: [], skipLibCheck: true };
    writeFileSync(join(project.dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const tsc = join(project.dir, 'node_modules', 'typescript', 'bin', 'tsc');
    const output = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project.dir, timeout: 270_000 }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error)
    );
    // Name the document's line for each error (doc-check-<n>.ts(line,col) → the block's line + line).
    const located = output.replace(/doc-check-(\d+)\.ts\((\d+),(\d+)\)/g, (_, n, line) => `docs/package.md:${typed[Number(n)].line + Number(line)}`);
    expect(located).toBe('');
  });
});
