// The gallery index of a forked collection: its first query copies every token from the source,
// a chunk per transaction, so the rows it reads grow with the collection, not with its square.
import { describe, expect, it } from 'vitest';
import { ALICE, collection, freshDexieStore, token } from '../../storage/testing/fixtures';
import { ForkStore, MISSES_PER_ROUND } from '../../ledger/fork/fork-store';
import type { ForkSource } from '../../ledger/fork/source';
import { StoreForkSource } from '../../ledger/fork/store-source';
import { testOrigin } from '../../ledger/fork/testing';
import type { QueryTx } from '../../ledger/store';
import { MemoryStore } from '../../ledger/testing/memory-store';
import { galleryIndex } from './sync';

/** A fork on the browser's store whose source holds collection 1 with `count` tokens, counting the tokens it fetches and the rows the gallery reads. */
async function forkOfCollection(count: number) {
  const source = new MemoryStore();
  await source.write(async (tx) => {
    await tx.put('collections', { ...collection(1), tokensMinted: count });
    for (let id = 1; id <= count; id++) await tx.put('tokens', token(1, id, ALICE));
  });
  const inner = new StoreForkSource(source, testOrigin(1));
  const fetched: number[] = [];
  const counting = Object.assign(Object.create(inner) as ForkSource, {
    token: (collectionId: number, tokenId: number) => (fetched.push(tokenId), inner.token(collectionId, tokenId))
  });
  const store = new ForkStore(await freshDexieStore(), counting);
  const reads = { tokens: 0 };
  const read = <T>(fn: (tx: QueryTx) => Promise<T>) =>
    store.read((tx) =>
      fn(
        new Proxy(tx, {
          get: (target, key) => {
            const value = Reflect.get(target, key) as unknown;
            if (key !== 'get' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
            return (table: string, rowKey: unknown) => {
              if (table === 'tokens') reads.tokens++;
              return (value as QueryTx['get']).call(target, table as 'tokens', rowKey as [number, number]);
            };
          }
        })
      )
    );
  return { read, fetched, reads, owner: {} };
}

describe('gallery index on a fork', () => {
  it('copies a large collection once, reading each row a bounded number of times (not once per round of copies)', async () => {
    const count = 5 * MISSES_PER_ROUND;
    const { read, fetched, reads, owner } = await forkOfCollection(count);
    const { index } = await galleryIndex(owner, read, 1, 'http://127.0.0.1/ipfs');
    expect(index.size).toBe(count);
    expect(fetched.length).toBe(count);
    expect(new Set(fetched).size).toBe(count);
    // Each chunk runs twice (its misses, then its rows). One transaction over all the rows ran again
    // per round of copies (6 × 320 reads here: the browser's store aborts at the round's 64th miss),
    // and failed past MAX_ROUNDS rounds (16,384 tokens).
    expect(reads.tokens).toBeLessThanOrEqual(2 * count + MISSES_PER_ROUND);

    fetched.length = 0;
    const again = await galleryIndex(owner, read, 1, 'http://127.0.0.1/ipfs');
    expect(again.index.size).toBe(count);
    expect(fetched).toEqual([]);
  }, 60_000);
});
