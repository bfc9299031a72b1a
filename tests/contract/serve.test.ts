// `npm run serve` as a user runs it (node scripts/serve.mjs: compiled JavaScript, built when
// stale): one log line per request, an SQLite database that keeps blocks and uploaded files across
// a restart, the import of an old JSON ledger, refusal of a file it cannot open, `--cors`, and a
// clean stop on SIGTERM and SIGINT that lets requests and blocks in flight finish.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, startTestHost } from './support';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'opalite-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Served {
  child: ChildProcess;
  url: string;
  origin: string;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnServe(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/serve.mjs', ...args], { cwd: root, env: { ...process.env, PORT: '0' } });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  // 'close', not 'exit': a refusal's last words may still be in the pipes when the process exits.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function serve(args: string[]): Promise<Served> {
  const started = spawnServe(args);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/sandbox\/v1)/.exec(started.output());
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 20);
    void started.exited.then(() => {
      clearInterval(timer);
      reject(new Error(`server exited early: ${started.output()}`));
    });
  });
  return { ...started, url, origin: new URL(url).origin };
}

/** Run the host expecting it to refuse to start: its exit code and everything it printed. */
async function refusal(args: string[]): Promise<{ code: number | null; output: string }> {
  const run = spawnServe(args);
  const code = await run.exited;
  return { code, output: run.output() };
}

async function stop(served: Served, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  served.child.kill(signal);
  return served.exited;
}

const createBody = (name: string) => ({ address: ALICE, name, description: 'survives a restart', tokenPrefix: 'KEPT' });

function post(served: Served, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${served.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Seed //Alice', ...headers },
    body: JSON.stringify(body)
  });
}

/** No stack trace: a refusal explains itself in one message. */
function expectNoStack(output: string) {
  expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

beforeAll(async () => {
  // Builds dist/server if it is missing or stale, so the timings below are of starts, not builds.
  const help = await refusal(['--help']);
  expect(help.code, help.output).toBe(0);
  expect(help.output).toMatch(/--data <file>/);
}, 120_000);

describe('npm run serve', () => {
  it('keeps blocks and uploaded files in the --data database across a restart, and stops cleanly', async () => {
    const data = join(dir, 'ledger.db');
    const first = await serve(['--data', data]);
    const created = await post(first, '/collections?use=Result', createBody('Kept')).then((r) => r.json());
    expect(created.parsed.collectionId).toBe(1);
    const genesis = (await fetch(`${first.url}/common/chain-properties`).then((r) => r.json())).genesisHash;
    const form = new FormData();
    const bytes = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    form.set('file', new Blob([bytes], { type: 'image/svg+xml' }), 'kept.svg');
    const uploaded = await fetch(`${first.url}/ipfs/upload-file`, { method: 'POST', body: form }).then((r) => r.json());
    expect(uploaded.cid).toMatch(/^Qm/);
    // Request lines reach stdout within the log's flush interval (50 ms), not with the answer.
    await expect.poll(() => first.output(), { timeout: 10_000 }).toMatch(/POST \/sandbox\/v1\/collections\?use=Result 201 [\d.]+ms/);
    expect(first.output()).toContain(`Ledger database: ${data}`);
    expect(await stop(first, 'SIGTERM')).toBe(0);
    expect(existsSync(data)).toBe(true);

    const second = await serve(['--data', data]);
    expect(await fetch(`${second.url}/collections?collectionId=1`).then((r) => r.json())).toMatchObject({ id: 1, name: 'Kept' });
    expect((await fetch(`${second.url}/common/chain-properties`).then((r) => r.json())).genesisHash).toBe(genesis);
    const file = await fetch(`${second.origin}/ipfs/${uploaded.cid}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/svg+xml');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    expect(await stop(second, 'SIGINT')).toBe(0);
  });

  it('on SIGTERM lets the requests in flight finish: every acknowledged block is there after a restart', async () => {
    const data = join(dir, 'in-flight.db');
    const first = await serve(['--data', data]);
    const transfers = Array.from({ length: 12 }, () =>
      post(first, '/balance/transfer?use=Result', { address: ALICE, destination: BOB, amount: '1' })
        .then(async (r) => ({ status: r.status, body: await r.json() }))
        .catch(() => null)
    );
    // Stop as soon as the first is answered, the others in flight; whatever was answered 201 must
    // have been written.
    await Promise.race(transfers);
    first.child.kill('SIGTERM');
    const answers = await Promise.all(transfers);
    expect(await first.exited).toBe(0);
    const acknowledged = answers.filter((a) => a?.status === 201 && a.body.isCompleted);
    expect(acknowledged.length).toBeGreaterThanOrEqual(1);

    const second = await serve(['--data', data]);
    for (const a of acknowledged) {
      const status = await fetch(`${second.url}/extrinsic/status?hash=${a!.body.hash}`).then((r) => r.json());
      expect(status).toMatchObject({ status: 'InBlock', isCompleted: true, isError: false });
    }
    const nonce = (await fetch(`${second.url}/common/nonce?address=${ALICE}`).then((r) => r.json())).nonce;
    expect(nonce).toBeGreaterThanOrEqual(acknowledged.length);
    expect(await stop(second)).toBe(0);
  });

  it('imports a JSON ledger of earlier versions into <file>.sqlite, once, leaving the file as it was', async () => {
    const source = await startTestHost();
    let exported: string;
    try {
      const res = await fetch(`${source.url}/collections?use=Result`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
        body: JSON.stringify(createBody('From JSON'))
      });
      expect(res.status).toBe(201);
      exported = await fetch(`${source.url}/dev/export`).then((r) => r.text());
    } finally {
      await source.stop();
    }
    const json = join(dir, 'old-ledger.json');
    writeFileSync(json, exported);

    const first = await serve(['--data', json]);
    expect(first.output()).toContain(`Imported the JSON ledger ${json}`);
    expect(first.output()).toContain(`Ledger database: ${json}.sqlite`);
    expect(await fetch(`${first.url}/collections?collectionId=1`).then((r) => r.json())).toMatchObject({ id: 1, name: 'From JSON' });
    await post(first, '/collections?use=Result', createBody('After import'));
    expect(await stop(first)).toBe(0);
    expect(readFileSync(json, 'utf8')).toBe(exported);

    // Started the same way again: the database is used, not a second import.
    const second = await serve(['--data', json]);
    expect(second.output()).toMatch(/imported earlier into .*old-ledger\.json\.sqlite/);
    expect(await fetch(`${second.url}/collections?collectionId=2`).then((r) => r.json())).toMatchObject({ id: 2, name: 'After import' });
    expect(await stop(second)).toBe(0);
  });

  it('refuses to start on a file it cannot open, naming the file, without a stack trace', async () => {
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'this is not a database, just some text someone saved here\n'.repeat(20));
    const notSqlite = await refusal(['--data', garbage]);
    expect(notSqlite.code).toBe(1);
    expect(notSqlite.output).toContain(garbage);
    expect(notSqlite.output).toMatch(/not an SQLite database/);
    expectNoStack(notSqlite.output);
    expect(readFileSync(garbage, 'utf8')).toMatch(/^this is not a database/);

    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, JSON.stringify({ chainConfig: {} }));
    const notExport = await refusal(['--data', foreign]);
    expect(notExport.code).toBe(1);
    expect(notExport.output).toContain(`Cannot import the JSON ledger ${foreign}`);
    expectNoStack(notExport.output);
    expect(existsSync(`${foreign}.sqlite`)).toBe(false);

    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const directory = await refusal(['--data', folder]);
    expect(directory.code).toBe(1);
    expect(directory.output).toContain(folder);
    expectNoStack(directory.output);
  });

  it('--cors chooses the origins whose pages may call it', async () => {
    const served = await serve(['--cors', 'https://app.example']);
    const preflight = (origin: string) => fetch(`${served.url}/collections`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight('https://app.example')).headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect((await preflight('http://localhost:5173')).headers.get('access-control-allow-origin')).toBeNull();
    expect(await stop(served)).toBe(0);
  });

  it('refuses unknown rules and malformed options with usage, exit code 2', async () => {
    const rules = await refusal(['--rules', 'bogus']);
    expect(rules.code).toBe(2);
    expect(rules.output).toMatch(/--rules must be "spec" or "unique"/);
    const upload = await refusal(['--max-upload', 'lots']);
    expect(upload.code).toBe(2);
    expect(upload.output).toMatch(/--max-upload must be a whole number/);
    // An interval the REST route would refuse is refused at the start too (5 ms would keep the host sealing).
    const interval = await refusal(['--blocks', 'interval:5']);
    expect(interval.code).toBe(2);
    expect(interval.output).toMatch(/--blocks interval must be a whole number of milliseconds from 100 to 3600000, not "interval:5"/);
    const cors = await refusal(['--cors', 'evil.example']);
    expect(cors.code).toBe(2);
    expect(cors.output).toMatch(/--cors: "evil.example" is not an origin/);
    expectNoStack(cors.output);
  });
});
