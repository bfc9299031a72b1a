import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../testing/memory-store';
import { ALICE, BOB, CHARLIE, account, collection, token } from '../../storage/testing/fixtures';
import type { Store } from '../store';
import type { CollectionRecord } from '../types';
import { ForkStore } from './fork-store';
import { goneKey } from './keys';
import { ForkSourceError, type ForkSource } from './source';
import { testOrigin } from './testing';
import { StoreForkSource } from './store-source';

const ORIGIN = testOrigin(2);

const minted = (c: CollectionRecord, n: number): CollectionRecord => ({ ...c, tokensMinted: n });

/** The source chain: two collections, three tokens (one nested), an allow list, two accounts. */
async function sourceStore(): Promise<Store> {
  const store = new MemoryStore();
  await store.write(async (tx) => {
    await tx.put('collections', minted(collection(1), 3));
    await tx.put('collections', minted(collection(2, BOB), 1));
    await tx.put('tokens', token(1, 1));
    await tx.put('tokens', token(1, 2, BOB));
    await tx.put('tokens', token(1, 3, [1, 1]));
    await tx.put('tokens', token(2, 1, BOB));
    await tx.put('allowList', { collectionId: 1, address: BOB });
    await tx.put('accounts', account(ALICE, 1000n, 4));
    await tx.put('accounts', account(BOB, 50n, 1));
  });
  return store;
}

/** A source that counts its reads and can be taken offline. */
class CountingSource {
  calls: string[] = [];
  offline = false;
  readonly origin = ORIGIN;
  constructor(private readonly inner: ForkSource) {
    return new Proxy(this, {
      get: (target, name, receiver) => {
        const own = Reflect.get(target, name, receiver);
        if (own !== undefined || typeof name !== 'string') return own;
        const method = (inner as unknown as Record<string, unknown>)[name];
        if (typeof method !== 'function') return method;
        return async (...args: unknown[]) => {
          target.calls.push(`${name}(${args.map(String).join(',')})`);
          if (target.offline) throw new ForkSourceError('unreachable', `${ORIGIN.source} is unreachable`, ORIGIN.source);
          return method.apply(inner, args);
        };
      }
    });
  }
}

async function fork(local: Store = new MemoryStore()) {
  const source = new CountingSource(new StoreForkSource(await sourceStore(), ORIGIN)) as CountingSource & ForkSource;
  return { store: new ForkStore(local, source), source, local };
}

describe('ForkStore', () => {
  it('copies a token and its collection on first read, and reads them locally after', async () => {
    const { store, source } = await fork();
    expect(await store.read((tx) => tx.get('tokens', [1, 2]))).toEqual(token(1, 2, BOB));
    expect(source.calls.sort()).toEqual(['collection(1)', 'token(1,2)']);
    source.calls = [];
    expect(await store.read((tx) => tx.get('tokens', [1, 2]))).toEqual(token(1, 2, BOB));
    expect(await store.read((tx) => tx.get('collections', 1))).toMatchObject({ id: 1, tokensMinted: 3 });
    expect(source.calls).toEqual([]);
  });

  it('asks the source once for a key however many readers wait for it', async () => {
    const { store, source } = await fork();
    const reads = await Promise.all(Array.from({ length: 10 }, () => store.read((tx) => tx.get('accounts', ALICE))));
    expect(reads.every((r) => r?.free === 1000n)).toBe(true);
    expect(source.calls).toEqual(['account(' + ALICE + ')']);
  });

  it('remembers what the source does not have, and never asks about ids handed out after the fork', async () => {
    const { store, source } = await fork();
    await store.read((tx) => tx.get('collections', 1));
    expect(await store.read((tx) => tx.get('tokens', [1, 9]))).toBeUndefined(); // after the source's last token id
    expect(await store.read((tx) => tx.get('collections', 3))).toBeUndefined(); // after the source's last collection
    expect(source.calls).toEqual(['collection(1)']);
    expect(await store.read((tx) => tx.get('accounts', CHARLIE))).toBeUndefined();
    expect(await store.read((tx) => tx.get('accounts', CHARLIE))).toBeUndefined();
    expect(source.calls.filter((c) => c.startsWith('account'))).toEqual([`account(${CHARLIE})`]);
  });

  it('keeps local writes and deletions over the source', async () => {
    const { store, source } = await fork();
    await store.write(async (tx) => {
      const t = (await tx.get('tokens', [1, 1]))!;
      await tx.put('tokens', { ...t, owner: CHARLIE });
      if (await tx.get('tokens', [1, 2])) await tx.delete('tokens', [1, 2]); // the ledger reads a row before it writes it
    });
    expect(await store.read((tx) => tx.get('tokens', [1, 1]))).toMatchObject({ owner: CHARLIE });
    expect(await store.read((tx) => tx.get('tokens', [1, 2]))).toBeUndefined();
    expect(source.calls.filter((c) => c === 'token(1,2)')).toHaveLength(1);
  });

  it('merges the source lists at the fork block with local changes', async () => {
    const { store } = await fork();
    await store.write(async (tx) => {
      const t = (await tx.get('tokens', [1, 2]))!;
      await tx.put('tokens', { ...t, owner: ALICE }); // Bob's token 1/2 goes to Alice
      await tx.put('collections', { ...(await tx.get('collections', 1))!, tokensMinted: 4 });
      await tx.put('tokens', token(1, 4, BOB)); // minted here
    });
    expect(await store.read((tx) => tx.tokensOfOwner(BOB, 1))).toEqual([{ collectionId: 1, tokenId: 4 }]);
    expect(await store.read((tx) => tx.tokensOfOwner(ALICE, 1))).toEqual([
      { collectionId: 1, tokenId: 1 },
      { collectionId: 1, tokenId: 2 }
    ]);
    expect(await store.read((tx) => tx.tokensOfOwner(BOB))).toEqual([
      { collectionId: 1, tokenId: 4 },
      { collectionId: 2, tokenId: 1 }
    ]);
    expect(await store.read((tx) => tx.countOwned(1, ALICE))).toBe(2);
    expect(await store.read((tx) => tx.tokenIdsOfCollection(1))).toEqual([1, 2, 3, 4]);
    expect((await store.read((tx) => tx.childrenOf(1, 1))).map((t) => t.tokenId)).toEqual([3]);
    expect(await store.read((tx) => tx.allowListOf(1))).toEqual([BOB]);
    expect(await store.read((tx) => tx.get('allowList', [1, ALICE]))).toBeUndefined();
    expect(await store.read((tx) => tx.get('allowList', [1, BOB]))).toEqual({ collectionId: 1, address: BOB });
  });

  it('answers what it copied with the source gone, and a ForkSourceError for what it never read', async () => {
    const { store, source } = await fork();
    await store.read((tx) => tx.get('tokens', [1, 1]));
    source.offline = true;
    expect(await store.read((tx) => tx.get('tokens', [1, 1]))).toEqual(token(1, 1));
    await expect(store.read((tx) => tx.get('tokens', [1, 2]))).rejects.toBeInstanceOf(ForkSourceError);
    // Nothing half-copied: the failed read wrote no mark that would answer "absent" later.
    expect(await store.inner.read((tx) => tx.get('meta', goneKey('tokens', [1, 2])))).toBeUndefined();
    source.offline = false;
    expect(await store.read((tx) => tx.get('tokens', [1, 2]))).toEqual(token(1, 2, BOB));
  });

  it('rolls back a write that missed rows, and runs it again once they are copied', async () => {
    const { store, local } = await fork();
    let runs = 0;
    await store.write(async (tx) => {
      runs++;
      await tx.put('meta', { key: 'written', value: runs });
      const alice = await tx.get('accounts', ALICE);
      await tx.put('accounts', { address: ALICE, free: (alice?.free ?? 0n) + 1n, nonce: alice?.nonce ?? 0 });
    });
    expect(runs).toBe(2);
    expect(await local.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 1001n, 4));
    expect(await local.read((tx) => tx.get('meta', 'written'))).toEqual({ key: 'written', value: 2 });
  });

  it('fetches nothing again over the same local store (a restart)', async () => {
    const local = new MemoryStore();
    const first = await fork(local);
    await first.store.read((tx) => tx.tokensOfOwner(BOB, 1));
    await first.store.read((tx) => tx.get('tokens', [1, 3]));
    const second = await fork(local);
    await second.store.read((tx) => tx.tokensOfOwner(BOB, 1));
    await second.store.read((tx) => tx.get('tokens', [1, 3]));
    expect(second.source.calls).toEqual([]);
  });

  it('copies a read of many rows in bounded rounds', async () => {
    const { store, source } = await fork();
    const accounts = Array.from({ length: 150 }, (_, i) => `5Account${i}`);
    const found = await store.read((tx) => Promise.all(accounts.map((a) => tx.get('accounts', a))));
    expect(found.every((a) => a === undefined)).toBe(true);
    expect(source.calls).toHaveLength(150);
  });
});
