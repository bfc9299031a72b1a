// Regressions found in review, each named after what went wrong.
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../testing/memory-store';
import { FaultyStore, keyOf, signed, transfer } from '../testing/chain-kit';
import { ALICE, BOB } from '../testing/harness';
import type { QueryTx } from '../store';
import { Ledger } from './ledger';
import { SIGNED_EXTENSIONS } from '../../codec/payload';
import { openApi } from '../../api/routes/route-test-kit';

/**
 * A store whose next `failNext` writes throw (the whole transaction is refused), whose writes after
 * that take `slowMs` (a slow disk), and whose pool comes back in hash order, as SQLite's does.
 */
class FailingWrites extends FaultyStore {
  failNext = 0;
  slowMs = 0;
  override async write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('injected: the block could not be written');
    }
    if (this.slowMs) await new Promise((resolve) => setTimeout(resolve, this.slowMs));
    return super.write(fn);
  }
  override read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return super.read((tx) =>
      fn(
        new Proxy(tx, {
          get: (target, property) =>
            property === 'pooled'
              ? async () => (await target.pooled()).sort((a, b) => (a.hash < b.hash ? -1 : 1))
              : (Reflect.get(target, property) as (...a: unknown[]) => unknown).bind?.(target) ?? Reflect.get(target, property)
        })
      )
    );
  }
}

describe('review regressions', () => {
  it('one signature replayed at every nonce: a payload naming fewer signed extensions is refused', async () => {
    const ledger = await Ledger.open({ store: new MemoryStore(), blockMode: { kind: 'manual' }, soleWriter: true });
    const { json, signature } = await signed(ledger, '//Alice', transfer(BOB, 5n));
    for (const signedExtensions of [[], SIGNED_EXTENSIONS.filter((n) => n !== 'CheckNonce'), [...SIGNED_EXTENSIONS].reverse()]) {
      await expect(ledger.submit({ ...json, signedExtensions }, signature)).rejects.toThrow(/signedExtensions must be exactly/);
    }
    ledger.close();
  });

  it('a nonce above u32 answered 500: Build, custodial Submit and BuildSequence answer 400', async () => {
    const api = await openApi();
    const body = { address: ALICE, destination: BOB, amount: 1 };
    expect((await api.request('POST', '/v1/balance/transfer?use=Build&nonce=4294967296', body)).status).toBe(400);
    expect((await api.request('POST', '/v1/balance/transfer?use=Submit&nonce=4294967296', body, '//Alice')).status).toBe(400);
    const sequence = await api.request('POST', '/v1/balance/transfer?use=BuildSequence&nonce=4294967290', Array(10).fill(body));
    expect(sequence.status).toBe(400);
    expect(sequence.json.error.message).toMatch(/nonce must be a whole number from 0 to 4294967295/);
  });

  it('a failed instant block left its extrinsics waiting forever: they are included without another submit', async () => {
    const store = new FailingWrites();
    const ledger = await Ledger.open({ store, soleWriter: true });
    const { address, key } = keyOf('//Alice');
    store.failNext = 1; // the first block fails; the rows written alone afterwards succeed, slowly
    store.slowMs = 100; // longer than the sealer's first retry (25 ms)
    const submitted = await ledger.signAndSubmit(address, transfer(BOB, 5n), key).catch((e: unknown) => e);
    if (submitted instanceof Error) throw submitted;
    const record = await (submitted as Awaited<ReturnType<Ledger['signAndSubmit']>>).included;
    expect(record.status).toBe('InBlock');
    ledger.close();
  });

  it('after a restart one failed block refused a signer’s later nonces for a gap: retries go in nonce order', async () => {
    const inner = new MemoryStore();
    const first = await Ledger.open({ store: inner, blockMode: { kind: 'manual' }, soleWriter: true });
    const { address, key } = keyOf('//Alice');
    const hashes: string[] = [];
    for (let i = 0; i < 6; i++) hashes.push((await first.signAndSubmit(address, transfer(BOB, BigInt(i + 1)), key)).hash);
    first.close();

    const store = new FailingWrites(inner);
    const second = await Ledger.open({ store, blockMode: { kind: 'manual' }, soleWriter: true });
    store.failNext = 1;
    await expect(second.sealBlock()).rejects.toThrow(/injected/);
    for (let i = 0; i < 6; i++) await second.sealBlock();
    for (const hash of hashes) expect((await second.status(hash))?.status).toBe('InBlock');
    second.close();
  });
});
