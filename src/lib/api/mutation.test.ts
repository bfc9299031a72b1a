// Custodial submissions through the REST handler: concurrent ones from one account take
// consecutive nonces (the ledger reserves them per signer from nonce choice to pool admission).
import { describe, expect, it, vi } from 'vitest';
import { encodeExtrinsicPayload, type SignerPayloadJSON } from '../codec/payload';
import { toHex } from '../codec/hash';
import { Ledger } from '../ledger/chain/ledger';
import type { Store } from '../ledger/store';
import { MemoryStore } from '../ledger/testing/memory-store';
import { createHandler } from './handler';
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
  it('admits 1,000 transfers from Seed //Alice, 32 in flight, with gapless nonces', async () => {
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
  it('opens one read transaction for a transfer on a shared host (the payload’s nonce), none for the call itself', async () => {
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
    api.ledger.close();
  });

  it('opens no read transaction for a transfer on a sole writer (its head and nonces are in memory)', async () => {
    const store = new MemoryStore();
    const ledger = await Ledger.open({ store, soleWriter: true });
    const handler = createHandler({ ledger });
    const build = async () => {
      const response = await handler(new Request('http://127.0.0.1/sandbox/v1/balance/transfer?use=Build', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: ALICE, destination: BOB, amount: '0.5' }) }));
      expect(response.status).toBe(201);
      return (await response.json()) as { signerPayloadJSON: SignerPayloadJSON; signerPayloadRaw: { data: string }; signerPayloadHex: string };
    };
    const first = await build(); // reads Alice's stored nonce once
    const read = vi.spyOn(store, 'read');
    const second = await build();
    expect(read).not.toHaveBeenCalled();
    expect(second.signerPayloadJSON).toEqual(first.signerPayloadJSON);
    // The payload is encoded once for both: the raw data and (under 256 bytes) the message to sign.
    const payload = toHex(encodeExtrinsicPayload(second.signerPayloadJSON));
    expect(second.signerPayloadRaw.data).toBe(payload);
    expect(second.signerPayloadHex).toBe(payload);
    expect(ledger.decodePayloadCall(second.signerPayloadJSON)).toMatchObject({ name: 'balances.transferKeepAlive', args: { dest: BOB, value: 5n * 10n ** 17n } });
    ledger.close();
  });

  it('still answers a bad amount with a ValidationError', async () => {
    const api = await openApi();
    const answer = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: '1.0000000000000000001' });
    expect(answer.status).toBe(400);
    expect(answer.json.error.name).toBe('ValidationError');
    api.ledger.close();
  });
});

describe('the status of an extrinsic just included', () => {
  /** A sole writer's handler; every answer also asked of a second handler on a ledger that reads the store. */
  async function soleWriter() {
    const store = new MemoryStore();
    const ledger = await Ledger.open({ store, soleWriter: true });
    const handler = createHandler({ ledger });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await handler(new Request(`http://127.0.0.1/sandbox/v1${path}`, { method, headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' }, body: body === undefined ? undefined : JSON.stringify(body) }));
      return { status: response.status, json: await response.json() };
    };
    return { store, ledger, call };
  }

  it('is answered from memory, as the store answers it, without a read transaction', async () => {
    const { store, ledger, call } = await soleWriter();
    const submitted = await call('POST', '/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: '2' });
    expect(submitted.status).toBe(201);
    const read = vi.spyOn(store, 'read');
    const fromMemory = await call('GET', `/extrinsic/status?hash=${submitted.json.hash}`);
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
    // The same ledger file opened again has nothing in memory: its answer is read from the store.
    const reopened = await Ledger.open({ store, soleWriter: true });
    const fromStore = await createHandler({ ledger: reopened })(new Request(`http://127.0.0.1/sandbox/v1/extrinsic/status?hash=${submitted.json.hash}`));
    expect(fromMemory.status).toBe(200);
    expect(fromMemory.json).toMatchObject({ status: 'InBlock', isCompleted: true, isError: false, parsed: { from: ALICE, to: BOB } });
    expect(fromMemory.json).toEqual(await fromStore.json());
    ledger.close();
    reopened.close();
  });

  it('reads the store when its parsed result needs chain state (a collection limit set)', async () => {
    const { store, ledger, call } = await soleWriter();
    const created = await call('POST', '/collections?use=Result', { address: ALICE, name: 'Limits', description: 'd', tokenPrefix: 'LIM' });
    const collectionId = created.json.parsed.collectionId as number;
    const limited = await call('POST', '/collections/set-limits?use=Submit', { address: ALICE, collectionId, limits: { accountTokenOwnershipLimit: 3 } });
    expect(limited.status).toBe(201);
    const read = vi.spyOn(store, 'read');
    const status = await call('GET', `/extrinsic/status?hash=${limited.json.hash}`);
    expect(read).toHaveBeenCalledTimes(1);
    expect(status.json.parsed).toMatchObject({ collectionId, limits: { accountTokenOwnershipLimit: 3 } });
    ledger.close();
  });
});

describe('custodial signing', () => {
  it("signs only with the key of the payload's signer: /extrinsic/sign and use=Sign refuse another seed", async () => {
    const api = await openApi();
    const built = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: 1 });
    const other = await api.request('POST', '/v1/extrinsic/sign', { signerPayloadJSON: built.json.signerPayloadJSON }, '//Bob');
    expect([other.status, other.json.error.name]).toEqual([400, 'BadSignatureError']);
    expect(other.json.error.message).toMatch(/The seed is not the key of the payload's signer 5Grwva/);
    const viaUse = await api.request('POST', '/v1/balance/transfer?use=Sign', { address: ALICE, destination: BOB, amount: 1 }, '//Bob');
    expect([viaUse.status, viaUse.json.error.name]).toEqual([400, 'BadSignatureError']);
    const own = await api.request('POST', '/v1/extrinsic/sign', { signerPayloadJSON: built.json.signerPayloadJSON }, '//Alice');
    expect(own.status).toBe(201);
  });
});
