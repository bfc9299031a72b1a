// examples/node-script as a user runs it, against the packed tarball instead of file:../..: a
// project of its own in a temporary folder, `node test.mjs`, and what it prints.
import { execFile } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDirectory } from '../contract/durability/child-host';
import { installPacked, REPO_ROOT } from './tarball';

const run = promisify(execFile);
const example = join(REPO_ROOT, 'examples', 'node-script');
const project = tempDirectory('opalite-node-example-');

beforeAll(async () => {
  // The example's own files only: not a node_modules a person may have installed there.
  cpSync(example, project.dir, { recursive: true, filter: (source) => !/[\\/](node_modules|package-lock\.json)$/.test(source) });
  await installPacked(project.dir);
});
afterAll(() => project.remove());

it('declares opalite as its dependency and imports only the public entry', () => {
  expect(JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8')).dependencies).toHaveProperty('opalite');
  expect(readFileSync(join(project.dir, 'test.mjs'), 'utf8')).toMatch(/from 'opalite\/node'/);
});

it('starts a ledger, creates a collection, mints a token, reads both back and stops', async () => {
  const { stdout, stderr } = await run(process.execPath, ['test.mjs'], { cwd: project.dir, timeout: 90_000 });
  expect(stderr).toBe('');
  const lines = stdout.trim().split('\n');
  expect(lines).toEqual([
    expect.stringMatching(/^Opalite REST API at http:\/\/127\.0\.0\.1:\d+\/sandbox\/v1$/),
    expect.stringMatching(/^Created collection 1 \(extrinsic 0x[0-9a-f]{64}\)$/),
    expect.stringMatching(/^Minted token 1\/1 \(extrinsic 0x[0-9a-f]{64}\)$/),
    'Collection 1: "Example" (EX), owner 5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
    'Token 1/1: "First token", owner 5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
    'Stopped'
  ]);
  // Stopped means stopped: the port it printed answers no more.
  const url = /at (\S+)/.exec(lines[0])![1];
  await expect(fetch(`${url}/dev/status`)).rejects.toThrow();
});
