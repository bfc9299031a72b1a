// One account can fill the pool (issue 17): with a small pool in manual blocks, started from the
// command line as a user starts it, one account cannot keep another out: beyond its share it is
// refused 429 with Retry-After once the pool is half full, while others still get their share;
// a lone busy account on an idle sandbox is not throttled (1,000 concurrent submits all wait and
// all go into the next block); bad pool options are refused with usage before anything starts;
// startHost() and createTestLedger() take the same options.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost } from '../../../src/pkg/node';
import { createTestLedger } from '../../../src/pkg/testing';
import { ROOT, startChildHost, tempDirectory, type ChildHost } from '../durability/child-host';
import { ALICE, BOB, CHARLIE, account, api, buildAndSign, expectClientError, type Answer } from './kit';

const DAVE = account('//Dave').address;
const temp = tempDirectory('opalite-pool-fairness-');
afterAll(() => temp.remove());

/** The child host's base URL as kit's `api` takes it. */
const target = (host: ChildHost) => ({ origin: new URL(host.url).origin, basePath: new URL(host.url).pathname });

/** A custodial transfer of 1 from `uri`'s account, submitted (not waited for: blocks are manual). */
function custodialTransfer(host: ChildHost, uri: string, address: string, headers: Record<string, string> = {}, timeoutMs?: number): Promise<Answer> {
  return api(target(host), 'POST', '/balance/transfer?use=Submit', { address, destination: BOB, amount: '1' }, { authorization: `Seed ${uri}`, ...headers }, timeoutMs);
}

/** Built here, signed by the client, sent to /extrinsic/submit (the SDK's way). */
async function signedTransfer(host: ChildHost, uri: string, address: string): Promise<Answer> {
  const signed = await buildAndSign(target(host), 'POST', '/balance/transfer', { address, destination: ALICE, amount: '1' }, uri);
  return api(target(host), 'POST', '/extrinsic/submit', signed);
}

function expectAccepted(answer: Answer): string {
  expect(answer.status, answer.text.slice(0, 300)).toBe(201);
  expect(answer.json.hash).toMatch(/^0x[0-9a-f]{64}$/);
  return answer.json.hash;
}

function expectRetryLater(answer: Answer, details: Record<string, unknown>): void {
  expectClientError(answer, 429, 'SubmitExtrinsicError');
  expect(answer.json.error.code).toBe('UN01003');
  // Manual blocks come when someone seals one: the real chain's block time, 6 s (pool-limits.ts).
  expect(answer.headers['retry-after']).toBe('6');
  expect(answer.json.error.details).toMatchObject({ ...details, retryAfter: 6 });
}

async function statusOf(host: ChildHost, hash: string): Promise<string> {
  const answer = await api(target(host), 'GET', `/extrinsic/status?hash=${hash}`);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return answer.json.status;
}

async function seal(host: ChildHost): Promise<string[]> {
  const answer = await api(target(host), 'POST', '/dev/blocks/seal');
  expect(answer.status, answer.text.slice(0, 300)).toBe(201);
  return answer.json.block.extrinsics;
}

describe('pool fairness (--pool-size, --pool-per-account)', () => {
  it('one account cannot keep another out: past its share it gets 429 with Retry-After once the pool is half full; others still get theirs', { timeout: 240_000 }, async () => {
    const host = await startChildHost({ data: join(temp.dir, 'small.sqlite'), blocks: 'manual', extraArgs: ['--pool-size', '8', '--pool-per-account', '2'] });
    try {
      const accepted: string[] = [];
      // Alice: two within her share, two more while fewer than half of 8 wait.
      for (let i = 0; i < 4; i++) accepted.push(expectAccepted(await custodialTransfer(host, '//Alice', ALICE)));
      // A page of another local origin may read Retry-After too (exposed by CORS).
      const refusedAlice = await custodialTransfer(host, '//Alice', ALICE, { origin: 'http://localhost:5173' });
      expectRetryLater(refusedAlice, { reason: 'PoolShareExceeded', waiting: 4, share: 2, poolWaiting: 4, poolSize: 8 });
      expect(refusedAlice.json.error.message).toBe(
        `Too many extrinsics of ${ALICE} waiting: it has 4, its guaranteed share of the pool is 2, ` +
          'and beyond its share an account waits only while the pool is less than half full (4 of 8 waiting); try again after the next block'
      );
      expect(String(refusedAlice.headers['access-control-expose-headers']).split(/,\s*/)).toContain('retry-after');
      // The refusal took no nonce: the next one is still after her four waiting.
      expect((await api(target(host), 'GET', `/common/nonce?address=${ALICE}`)).json.nonce).toBe(4);

      // Bob, signing himself, is not kept out: his share is his though the pool is half full.
      for (let i = 0; i < 2; i++) accepted.push(expectAccepted(await signedTransfer(host, '//Bob', BOB)));
      expectRetryLater(await signedTransfer(host, '//Bob', BOB), { reason: 'PoolShareExceeded', waiting: 2, share: 2, poolWaiting: 6 });

      // Charlie's share fills the pool; then everyone waits for the block, Dave within his share too.
      for (let i = 0; i < 2; i++) accepted.push(expectAccepted(await custodialTransfer(host, '//Charlie', CHARLIE)));
      const full = await custodialTransfer(host, '//Dave', DAVE);
      expectRetryLater(full, { reason: 'PoolFull', poolWaiting: 8, poolSize: 8 });
      expect(full.json.error.message).toBe('The transaction pool is full (8 of 8 waiting); try again after the next block');

      // Every accepted one waits, and the next block includes them all; then Alice is welcome again.
      for (const hash of accepted) expect(await statusOf(host, hash)).toBe('Ready');
      expect((await seal(host)).sort()).toEqual([...accepted].sort());
      for (const hash of accepted) expect(await statusOf(host, hash)).toBe('InBlock');
      expectAccepted(await custodialTransfer(host, '//Alice', ALICE));
      expectAccepted(await custodialTransfer(host, '//Dave', DAVE));
    } finally {
      await host.stop();
    }
  });

  it('never throttles a lone busy account on an idle sandbox: 1,000 concurrent transfers all wait (default pool) and all go into the next block', { timeout: 360_000 }, async () => {
    const host = await startChildHost({ data: join(temp.dir, 'busy.sqlite'), blocks: 'manual' });
    try {
      // One account's 1,000 are admitted in turn, so the last answers after all before it: on a
      // busy machine that is past the kit's 20 s guard against a stuck host, not a stuck host.
      const answers = await Promise.all(Array.from({ length: 1_000 }, () => custodialTransfer(host, '//Alice', ALICE, {}, 120_000)));
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused.length, `refused: ${refused.slice(0, 3).map((a) => `${a.status} ${a.text.slice(0, 200)}`).join('; ')}`).toBe(0);
      const hashes = answers.map((a) => a.json.hash as string);
      expect(new Set(hashes).size).toBe(1_000);
      // All 1,000 wait at once: far past the share of 64, under half of 8,192.
      expect((await api(target(host), 'GET', `/common/nonce?address=${ALICE}`)).json.nonce).toBe(1_000);
      expect((await seal(host)).sort()).toEqual([...hashes].sort());
      for (const hash of hashes.slice(0, 20)) expect(await statusOf(host, hash)).toBe('InBlock');
    } finally {
      await host.stop();
    }
  });

  it.each([
    [['--pool-size', '0'], '--pool-size must be a whole number of at least 1, not "0"'],
    [['--pool-size', 'lots'], '--pool-size must be a whole number of at least 1, not "lots"'],
    [['--pool-size', '65537'], '--pool-size must be a whole number from 1 to 65536, not 65537'],
    [['--pool-per-account', '0'], '--pool-per-account must be a whole number of at least 1, not "0"'],
    [['--pool-size', '8', '--pool-per-account', '9'], '--pool-per-account must be a whole number from 1 to the pool size (--pool-size, 8), not 9'],
    [['--pool-per-account', '8193'], '--pool-per-account must be a whole number from 1 to the pool size (--pool-size, 8192), not 8193']
  ])('refuses %j with usage and exit code 2, before opening anything', { timeout: 120_000 }, async (args, message) => {
    const data = join(temp.dir, `refused-${args.join('_')}.sqlite`);
    const run = await serveExpectingExit([...args, '--data', data, '--port', '0']);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toContain(`opalite: ${message}`);
    expect(run.output).toContain('--pool-per-account <n>');
    expect(run.output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(run.output).not.toContain('Ledger database');
    expect(existsSync(data)).toBe(false);
  });
});

describe('pool options of opalite/node and opalite/testing', () => {
  it('createTestLedger({ poolSize, poolPerAccount }) runs a ledger with that pool', { timeout: 120_000 }, async () => {
    const ledger = await createTestLedger({ blocks: 'manual', poolSize: 4, poolPerAccount: 1 });
    try {
      const host = { origin: ledger.origin, basePath: new URL(ledger.url).pathname };
      const submit = () => api(host, 'POST', '/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: '1' }, { authorization: 'Seed //Alice' });
      expectAccepted(await submit());
      expectAccepted(await submit());
      expectRetryLater(await submit(), { reason: 'PoolShareExceeded', waiting: 2, share: 1, poolWaiting: 2, poolSize: 4 });
    } finally {
      await ledger.stop();
    }
  });

  it.each([
    [{ poolSize: 0 }, 'opalite: poolSize must be a whole number from 1 to 65536, not 0'],
    [{ poolSize: 4, poolPerAccount: 5 }, 'opalite: poolPerAccount must be a whole number from 1 to the pool size (poolSize, 4), not 5'],
    [{ poolPerAccount: 2.5 }, 'opalite: poolPerAccount must be a whole number from 1 to the pool size (poolSize, 8192), not 2.5']
  ])('startHost(%o) is refused with a TypeError naming the option, having opened nothing', async (options, message) => {
    const data = join(temp.dir, `refused-${Object.values(options).join('_')}.sqlite`);
    const started = startHost({ ...options, data, quiet: true });
    await expect(started).rejects.toThrow(TypeError);
    await expect(started).rejects.toThrow(message);
    expect(existsSync(data)).toBe(false);
  });
});

/** `npm run serve` with `args`, expected to exit: its code and everything it printed. */
function serveExpectingExit(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'serve.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  // 'close', not 'exit': the process may exit before its last words are read from its pipes.
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
