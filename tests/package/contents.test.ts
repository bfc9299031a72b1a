// What the tarball holds: every export and bin it declares, the licence, and nothing a consumer
// does not run (sources, tests, source maps, the build's metafile); and that it runs with only
// its dependencies installed.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirectory } from '../contract/durability/child-host';
import { startServe } from './cli';
import { installPacked, installPackedProduction, REPO_ROOT } from './tarball';

const run = promisify(execFile);

const project = tempDirectory('opalite-contents-');
const installed = join(project.dir, 'node_modules', 'opalite');
let files: string[];
let manifest: { exports: Record<string, string | Record<string, string>>; bin: Record<string, string>; dependencies: Record<string, string>; private?: boolean; license?: string };

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(installed, path)];
  });
}

beforeAll(async () => {
  await installPacked(project.dir);
  files = walk(installed).sort();
  manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
});
afterAll(() => project.remove());

it('is publishable: not private, Apache-2.0 with the licence text', () => {
  expect(manifest.private).toBeUndefined();
  expect(manifest.license).toBe('Apache-2.0');
  expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0[\s\S]*Copyright Opalite contributors/);
});

it('holds every file its exports and bin name (with types for each entry)', () => {
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const targets = typeof target === 'string' ? [target] : Object.values(target);
    if (typeof target !== 'string' && subpath !== './package.json') expect(target, subpath).toHaveProperty('types');
    for (const file of targets) expect(files, `${subpath} → ${file}`).toContain(file.replace(/^\.\//, ''));
  }
  for (const file of Object.values(manifest.bin)) expect(files).toContain(file);
  expect(files).toContain('dist/server/main.js');
  expect(files).toContain('dist/server/verify-worker.js');
  expect(files).toContain('dist/pkg/sandbox-worker.js');
});

it('holds nothing else: no sources, tests, source maps or build metadata', () => {
  const allowed = /^(LICENSE|README\.md|package\.json|bin\/opalite\.mjs|dist\/server\/(main|verify-worker)\.js|dist\/pkg\/[\w-]+\.(js|d\.ts))$/;
  expect(files.filter((f) => !allowed.test(f))).toEqual([]);
});

describe('with only its dependencies installed (none of this repository’s devDependencies)', () => {
  const production = tempDirectory('opalite-production-');
  beforeAll(() => installPackedProduction(production.dir));
  afterAll(() => production.remove());

  it('has none of the devDependencies to lean on', () => {
    for (const name of ['typescript', 'tsx', 'vitest', '@unique-nft/sdk']) expect(existsSync(join(production.dir, 'node_modules', name)), name).toBe(false);
    expect(existsSync(join(production.dir, 'node_modules', 'better-sqlite3'))).toBe(true);
  });

  it('opalite/node and opalite/testing load and answer', async () => {
    const script = `
      import { startHost } from 'opalite/node';
      import { createTestLedger } from 'opalite/testing';
      const host = await startHost({ verifyThreads: 1 });
      const created = await fetch(host.url + '/collections?use=Result', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
        body: JSON.stringify({ address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', name: 'P', description: 'd', tokenPrefix: 'P' }) }).then((r) => r.json());
      await host.stop();
      const ledger = await createTestLedger();
      const status = await ledger.status();
      await ledger.stop();
      console.log(JSON.stringify({ created: created.parsed, head: status.head.number }));`;
    writeFileSync(join(production.dir, 'uses-package.mjs'), script);
    const { stdout } = await run(process.execPath, ['uses-package.mjs'], { cwd: production.dir, timeout: 90_000 });
    expect(JSON.parse(stdout)).toEqual({ created: { collectionId: 1 }, head: 0 });
  });

  it('`opalite serve` starts and answers', async () => {
    const serving = await startServe(production.dir, ['--port', '0', '--verify-threads', '0']);
    try {
      expect(await (await fetch(`${serving.url}/dev/status`)).json()).toMatchObject({ host: 'node', head: { number: 0 } });
    } finally {
      expect(await serving.stop()).toBe(0);
    }
  });
});
