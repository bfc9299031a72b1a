// Custodial submissions through the REST handler: concurrent ones from one account take
// consecutive nonces (the ledger reserves them per signer from nonce choice to pool admission).
import { describe, expect, it } from 'vitest';
import type { Store } from '../ledger/store';
import { ALICE, BOB, openApi } from './routes/route-test-kit';

/** Run `tasks` with at most `limit` in flight. */
async function pooled<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  let inFlight = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) {
        const i = next++;
        peak = Math.max(peak, ++inFlight);
        results[i] = await task(i);
        inFlight--;
      }
    })
  );
  expect(peak).toBe(limit);
  return results;
}

describe('concurrent custodial submissions of one account', () => {
  it('admits 1,000 transfers from Seed //Alice, 32 in flight, with gapless nonces', { timeout: 120_000 }, async () => {
    const api = await openApi();
    const answers = await pooled(1000, 32, () =>
      api.request('POST', '/v1/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 }, '//Alice')
    );
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => a.json)).toEqual([]);
    const hashes = new Set(answers.map((a) => a.json.hash));
    expect(hashes.size).toBe(1000);

    const store: Store = api.store;
    const records = (await store.dump()).extrinsics.filter((r) => r.signer === ALICE);
    expect(records.every((r) => r.status === 'InBlock')).toBe(true);
    expect(records.map((r) => r.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect((await api.get(`/v1/common/nonce?address=${ALICE}`)).json.nonce).toBe(1000);
    api.ledger.close();
  });

  it('counts waiting extrinsics in the next nonce (manual blocks)', async () => {
    const api = await openApi();
    api.ledger.setBlockMode({ kind: 'manual' });
    for (let i = 0; i < 3; i++) {
      const answer = await api.request('POST', '/v1/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 }, '//Alice');
      expect(answer.status, JSON.stringify(answer.json)).toBe(201);
      expect((await api.get(`/v1/extrinsic/status?hash=${answer.json.hash}`)).json.status).toBe('Ready');
    }
    expect((await api.get(`/v1/common/nonce?address=${ALICE}`)).json.nonce).toBe(3);
    const built = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: 1 });
    expect(Number.parseInt(built.json.signerPayloadJSON.nonce, 16)).toBe(3);
    api.ledger.close();
  });
});

describe('building a call that reads no state', () => {
  it('opens one read transaction for a transfer (the payload), none for the call itself', async () => {
    const api = await openApi();
    const store: Store = api.store;
    const read = store.read.bind(store);
    let reads = 0;
    store.read = (fn) => {
      reads++;
      return read(fn);
    };
    const answer = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: '0.5' });
    expect(answer.status).toBe(201);
    expect(answer.json.signerPayloadJSON.address).toBe(ALICE);
    expect(reads).toBe(1);
  });
});
