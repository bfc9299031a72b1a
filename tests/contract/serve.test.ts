// `npm run serve` as a user runs it: one log line per request, a data file that survives a
// restart, and a clean stop on SIGTERM and SIGINT.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'opalite-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], { cwd: root, env: { ...process.env, PORT: '0' } });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/sandbox\/v1)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`server exited early: ${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

describe('npm run serve', () => {
  it('logs each request, keeps the ledger in a data file and stops cleanly', async () => {
    const data = join(dir, 'ledger.json');
    const first = await serve(['--data', data]);
    const created = await fetch(`${first.url}/collections?use=Result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
      body: JSON.stringify({ address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', name: 'Kept', description: 'survives a restart', tokenPrefix: 'KEPT' })
    }).then((r) => r.json());
    expect(created.parsed.collectionId).toBe(1);
    const genesis = (await fetch(`${first.url}/common/chain-properties`).then((r) => r.json())).genesisHash;
    expect(first.output()).toMatch(/POST \/sandbox\/v1\/collections\?use=Result 201 [\d.]+ms/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(data)).toBe(true);

    const second = await serve(['--data', data]);
    const collection = await fetch(`${second.url}/collections?collectionId=1`).then((r) => r.json());
    expect(collection).toMatchObject({ id: 1, name: 'Kept' });
    expect((await fetch(`${second.url}/common/chain-properties`).then((r) => r.json())).genesisHash).toBe(genesis);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('refuses an unknown rule set', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--rules', 'bogus'], { cwd: root, env: { ...process.env, PORT: '0' } });
    let output = '';
    child.stderr!.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(output).toMatch(/--rules must be "spec" or "unique"/);
  });
});
