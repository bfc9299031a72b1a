// Pool fairness through the ledger: no account keeps another out, a lone busy account is not
// throttled, a refusal changes nothing and says when to retry, and browser contexts sharing one
// store count each other's waiting extrinsics.
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../testing/memory-store';
import { keyOf, transfer } from '../testing/chain-kit';
import { BOB } from '../testing/harness';
import type { Store } from '../store';
import { Ledger, type LedgerOptions } from './ledger';
import { TransactionError } from './errors';

const [alice, bob, charlie, dave] = ['//Alice', '//Bob', '//Charlie', '//Dave'].map(keyOf);
type Key = typeof alice;

function open(store: Store, options: Partial<LedgerOptions> = {}) {
  return Ledger.open({ store, blockMode: { kind: 'manual' }, soleWriter: true, ...options });
}

/** One custodial transfer of `who`; the refusal (a TransactionError) instead of throwing it. */
function submit(ledger: Ledger, who: Key) {
  return ledger.signAndSubmit(who.address, transfer(BOB, 1n), who.key).then(
    (submitted) => ({ admitted: submitted }),
    (error: unknown) => {
      if (!(error instanceof TransactionError)) throw error;
      return { refused: error };
    }
  );
}

/** Submit `count` one after another; how many were admitted and the first refusal. */
async function submitMany(ledger: Ledger, who: Key, count: number) {
  const outcomes = [];
  for (let i = 0; i < count; i++) outcomes.push(await submit(ledger, who));
  return { admitted: outcomes.filter((o) => 'admitted' in o).length, refusal: outcomes.find((o) => 'refused' in o)?.refused };
}

describe('pool fairness', () => {
  it('one account cannot keep another out: beyond its share only until the pool is half full, the rest kept for the shares of others', async () => {
    const store: Store = new MemoryStore();
    const ledger = await open(store, { pool: { size: 8, perAccount: 2 } });

    // Alice, beyond her share of 2, is admitted while fewer than 4 (half of 8) wait.
    const fromAlice = await submitMany(ledger, alice, 5);
    expect(fromAlice.admitted).toBe(4);
    expect(fromAlice.refusal).toMatchObject({
      kind: 'PoolBusy',
      details: { reason: 'PoolShareExceeded', waiting: 4, share: 2, poolWaiting: 4, poolSize: 8, retryAfter: 6 }
    });
    expect(fromAlice.refusal!.message).toBe(
      `Too many extrinsics of ${alice.address} waiting: it has 4, its guaranteed share of the pool is 2, ` +
        'and beyond its share an account waits only while the pool is less than half full (4 of 8 waiting); try again after the next block'
    );
    // The refusal changed nothing: no row, no nonce taken.
    expect((await store.dump()).pool).toHaveLength(4);
    expect(await ledger.nextNonce(alice.address)).toBe(4);

    // Bob gets his share though the pool is half full, and no more.
    const fromBob = await submitMany(ledger, bob, 3);
    expect(fromBob.admitted).toBe(2);
    expect(fromBob.refusal?.details).toMatchObject({ reason: 'PoolShareExceeded', waiting: 2, share: 2, poolWaiting: 6 });

    // Charlie's share fills the pool: now everyone is refused, Dave within his share too.
    expect((await submitMany(ledger, charlie, 2)).admitted).toBe(2);
    const fromDave = await submitMany(ledger, dave, 1);
    expect(fromDave.admitted).toBe(0);
    expect(fromDave.refusal).toMatchObject({ kind: 'PoolBusy', details: { reason: 'PoolFull', poolWaiting: 8, poolSize: 8, retryAfter: 6 } });
    expect(fromDave.refusal!.message).toBe('The transaction pool is full (8 of 8 waiting); try again after the next block');

    // The next block empties the pool: Alice may go beyond her share again.
    const block = await ledger.sealBlock();
    expect(block?.extrinsics).toHaveLength(8);
    expect((await submitMany(ledger, alice, 4)).admitted).toBe(4);
    ledger.close();
  });

  it('never throttles a lone busy account on an idle sandbox: 1,000 concurrent submits all wait and are all included', async () => {
    const ledger = await open(new MemoryStore());
    const outcomes = await Promise.all(Array.from({ length: 1_000 }, () => submit(ledger, alice)));
    const refused = outcomes.flatMap((o) => ('refused' in o ? [o.refused.message] : []));
    expect(refused).toEqual([]);
    const block = await ledger.sealBlock();
    expect(block?.extrinsics).toHaveLength(1_000);
    for (const o of outcomes) if ('admitted' in o) expect((await o.admitted.included).status).toBe('InBlock');
    expect(await ledger.nextNonce(alice.address)).toBe(1_000);
    ledger.close();
  });

  it('a lone account submitting concurrently gets exactly the half of the pool the rule allows', async () => {
    const ledger = await open(new MemoryStore(), { pool: { size: 64, perAccount: 4 } });
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => submit(ledger, alice)));
    expect(outcomes.filter((o) => 'admitted' in o)).toHaveLength(32);
    const block = await ledger.sealBlock();
    expect(block?.extrinsics).toHaveLength(32);
    expect(await ledger.nextNonce(alice.address)).toBe(32); // the refused took no nonce: no gap
    ledger.close();
  });

  it('says when to retry by the block mode: one interval when blocks come on a timer', async () => {
    const ledger = await open(new MemoryStore(), { pool: { size: 2, perAccount: 1 }, blockMode: { kind: 'interval', ms: 60_000 } });
    const fromAlice = await submitMany(ledger, alice, 2);
    expect(fromAlice.admitted).toBe(1);
    expect(fromAlice.refusal?.details).toMatchObject({ reason: 'PoolShareExceeded', retryAfter: 60 });
    ledger.close();
  });

  it('counts what other browser contexts sharing the store keep waiting (the same rule in every tab)', async () => {
    const store = new MemoryStore();
    const options = { soleWriter: false, pool: { size: 8, perAccount: 2 } };
    const tabA = await open(store, options);
    const tabB = await open(store, options);
    expect((await submitMany(tabA, alice, 4)).admitted).toBe(4);
    // Tab B sees Alice's 4 rows: she is past her share and the pool half full.
    const again = await submitMany(tabB, alice, 1);
    expect(again.refusal?.details).toMatchObject({ reason: 'PoolShareExceeded', waiting: 4, share: 2, poolWaiting: 4 });
    expect((await submitMany(tabB, bob, 3)).admitted).toBe(2);
    expect((await submitMany(tabA, charlie, 2)).admitted).toBe(2);
    expect((await submitMany(tabB, dave, 1)).refusal?.details).toMatchObject({ reason: 'PoolFull', poolWaiting: 8 });
    tabA.close();
    tabB.close();
  });
});
