// `npm start` builds only when an input of the app's build changed (scripts/app-build-state.mjs).
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appBuildFingerprint, isAppBuildCurrent, recordAppBuild } from '../../scripts/app-build-state.mjs';

let root: string;
let build: string;

/** A project with two sources, a test beside them, and a complete build recorded from them. */
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'opalite-build-state-'));
  build = join(root, 'build');
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  mkdirSync(build);
  writeFileSync(join(root, 'src', 'app.html'), '<html></html>');
  writeFileSync(join(root, 'src', 'lib', 'a.ts'), 'export const a = 1;');
  writeFileSync(join(root, 'src', 'lib', 'a.test.ts'), 'test');
  writeFileSync(join(root, 'package.json'), '{}');
  writeFileSync(join(build, 'index.html'), '<html></html>');
  recordAppBuild(build, appBuildFingerprint(root));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('app build state', () => {
  it('is current right after a build, and stays so when only a test changes', () => {
    expect(isAppBuildCurrent(root, build)).toBe(true);
    writeFileSync(join(root, 'src', 'lib', 'a.test.ts'), 'another test');
    expect(isAppBuildCurrent(root, build)).toBe(true);
  });

  it('is stale once a source is edited, even to the same size', () => {
    writeFileSync(join(root, 'src', 'lib', 'a.ts'), 'export const a = 2;');
    utimesSync(join(root, 'src', 'lib', 'a.ts'), new Date(), new Date(Date.now() + 5_000));
    expect(isAppBuildCurrent(root, build)).toBe(false);
  });

  it('is stale when a source is added, removed or renamed, or the configuration changes', () => {
    writeFileSync(join(root, 'src', 'lib', 'b.ts'), 'export const b = 1;');
    expect(isAppBuildCurrent(root, build)).toBe(false);
    rmSync(join(root, 'src', 'lib', 'b.ts'));
    expect(isAppBuildCurrent(root, build)).toBe(true);
    renameSync(join(root, 'src', 'lib', 'a.ts'), join(root, 'src', 'lib', 'c.ts'));
    expect(isAppBuildCurrent(root, build)).toBe(false);
    renameSync(join(root, 'src', 'lib', 'c.ts'), join(root, 'src', 'lib', 'a.ts'));
    writeFileSync(join(root, 'vite.config.ts'), 'export default {}');
    expect(isAppBuildCurrent(root, build)).toBe(false);
  });

  it('is stale without a complete build or with an unreadable stamp', () => {
    rmSync(join(build, 'index.html'));
    expect(isAppBuildCurrent(root, build)).toBe(false);
    writeFileSync(join(build, 'index.html'), '<html></html>');
    writeFileSync(join(build, '.opalite-build.json'), '{not json');
    expect(isAppBuildCurrent(root, build)).toBe(false);
  });
});
