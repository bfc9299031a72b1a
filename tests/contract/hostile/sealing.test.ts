// 500 for client mistakes / never a crash: in interval block mode an error thrown while a block is
// sealed (injected at the store boundary of the running Node host) is logged, the extrinsics of
// that block get a definite status (never 404 after a 2xx submit), the host keeps serving and
// producing blocks, and nothing becomes an unhandled rejection.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningHost } from '../../../server/host';
import type { Store } from '../../../src/lib/ledger/store';
import { startTestHost } from '../support';
import { ALICE, BOB, api, type Answer } from './kit';

const INJECTED = 'injected failure: the disk went away while sealing';

let running: RunningHost;
let host: { origin: string; basePath: string };
const logged: string[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const onUncaught = (error: unknown) => unhandled.push(error);

/** How the next store write fails: before the transaction runs, or after its writes (so it must roll back). */
type Injection = 'rejects' | 'throws inside the transaction';
let armed: Injection | null = null;
let fired = 0;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUncaught);
  running = await startTestHost({ blockMode: { kind: 'interval', ms: 100 }, log: (line) => logged.push(line) });
  const url = new URL(running.url);
  host = { origin: url.origin, basePath: url.pathname };
  // The store the ledger writes blocks through: the one seam below the ledger a host owns.
  const store = running.host.store as Store;
  const write = store.write.bind(store);
  store.write = (<T>(fn: Parameters<Store['write']>[0]) => {
    const injection = armed;
    if (!injection) return write(fn) as Promise<T>;
    armed = null;
    fired++;
    if (injection === 'rejects') return Promise.reject(new Error(INJECTED));
    return write(async (tx) => {
      await fn(tx);
      throw new Error(INJECTED);
    }) as Promise<T>;
  }) as Store['write'];
});

afterAll(async () => {
  await running?.stop();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUncaught);
});

let consoleLines: string[] = [];
beforeEach(() => {
  consoleLines = [];
  for (const method of ['error', 'warn', 'log'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleLines.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
    });
  }
});
afterEach(() => vi.restoreAllMocks());

/** Poll until `check` returns a value (a liveness bound, not a speed check). */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function submitTransfer(amount: string): Promise<string> {
  const res = await api(host, 'POST', '/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount }, { authorization: 'Seed //Alice' });
  expect(res.status, res.text.slice(0, 300)).toBe(201);
  return res.json.hash;
}

/** The status once it is definite (included or failed); a 404 at any point fails. */
async function definiteStatus(hash: string): Promise<Answer> {
  return eventually(`a definite status for ${hash}`, async () => {
    const res = await api(host, 'GET', `/extrinsic/status?hash=${hash}`);
    expect(res.status, `status of a hash answered 201 at submit: ${res.text.slice(0, 300)}`).toBe(200);
    return res.json.isCompleted || res.json.isError ? res : undefined;
  });
}

const head = async () => (await api(host, 'GET', '/dev/status')).json.head.number as number;

async function setBlockMode(mode: { kind: 'manual' } | { kind: 'interval'; ms: number }): Promise<void> {
  const res = await api(host, 'POST', '/dev/block-mode', mode);
  expect(res.status, res.text.slice(0, 300)).toBe(201);
}

describe('500 for client mistakes: an error while sealing in interval mode', () => {
  it.each<Injection>(['rejects', 'throws inside the transaction'])('the store %s once: logged, a definite status, blocks go on, no unhandled rejection', async (injection) => {
    // Blocks pause while it is submitted, so the first block once they resume holds it: that one fails.
    await setBlockMode({ kind: 'manual' });
    const hash = await submitTransfer('1');
    armed = injection;
    const firedBefore = fired;
    await setBlockMode({ kind: 'interval', ms: 100 });
    await eventually('the injected failure', async () => (fired > firedBefore ? true : undefined));

    // One failed block is fewer than the three that drop an extrinsic (sealer.ts MAX_FAILED_BLOCKS):
    // it waits again and a later block includes it, as decision 0006 says.
    const affected = await definiteStatus(hash);
    expect(affected.json, affected.text.slice(0, 300)).toMatchObject({ status: 'InBlock', isCompleted: true, isError: false, error: null });

    // The host keeps serving and producing blocks.
    const headAfterFailure = await head();
    const next = await submitTransfer('2');
    const included = await definiteStatus(next);
    expect(included.json).toMatchObject({ isCompleted: true, isError: false });
    expect(await head()).toBeGreaterThan(headAfterFailure);
    expect((await api(host, 'GET', '/common/chain-properties')).status).toBe(200);

    // Someone can find out what happened.
    const everything = [...logged, ...consoleLines].join('\n');
    expect(everything, 'the failure is logged').toContain(INJECTED);
    // Let any stray rejection surface before looking.
    await new Promise((r) => setTimeout(r, 200));
    expect(unhandled.map(String)).toEqual([]);
  });
});
