import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE, TestChain } from './testing/harness';
import { NESTING_BUDGET } from './constants';
import { addr, getCollection, getToken, mint as mintToken, putCollection } from './tokens/fixtures';
import type { Call } from './types';

const mint = (collectionId: number): Call => ({ name: 'unique.createItem', args: { collectionId, owner: CHARLIE, properties: [] } });

/** Collection 1 is Alice's; collection 2 is Bob's, where Alice may not mint. */
async function chainWithTwoCollections(): Promise<TestChain> {
  const chain = new TestChain();
  await putCollection(chain);
  await putCollection(chain, { id: 2, owner: BOB });
  return chain;
}

describe('utility.batch', () => {
  it('runs every call in order with ItemCompleted each and BatchCompleted at the end', async () => {
    const chain = await chainWithTwoCollections();
    const events = await chain.ok(ALICE, 'utility.batch', { calls: [mint(1), mint(1)] });
    expect(events.map((e) => `${e.section}.${e.method}`)).toEqual([
      'common.ItemCreated',
      'utility.ItemCompleted',
      'common.ItemCreated',
      'utility.ItemCompleted',
      'utility.BatchCompleted'
    ]);
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(2);
  });

  it('stops at the first failure: earlier calls stay, later ones do not run, the batch itself succeeds', async () => {
    const chain = await chainWithTwoCollections();
    const events = await chain.ok(ALICE, 'utility.batch', { calls: [mint(1), mint(2), mint(1)] });
    expect(events.map((e) => `${e.section}.${e.method}`)).toEqual(['common.ItemCreated', 'utility.ItemCompleted', 'utility.BatchInterrupted']);
    expect(events[2].data).toMatchObject({ index: 1, error: { module: { section: 'common' } } });
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(1);
    expect((await getCollection(chain, 2))?.tokensMinted).toBe(0);
  });

  it('gives every call its own nesting budget, as each dispatchable has on the chain', async () => {
    const chain = new TestChain();
    await putCollection(chain, { permissions: { nesting: { tokenOwner: true } } });
    const parent = await mintToken(chain, 1, ALICE);
    // More nested mints than one budget allows: each walks the parent chain.
    const count = NESTING_BUDGET + 1;
    const nestedMint: Call = { name: 'unique.createItem', args: { collectionId: 1, owner: addr(1, parent), properties: [] } };
    const events = await chain.ok(ALICE, 'utility.batch', { calls: Array.from({ length: count }, () => nestedMint) });
    expect(events.filter((e) => e.method === 'ItemCompleted')).toHaveLength(count);
    expect(events.at(-1)).toMatchObject({ section: 'utility', method: 'BatchCompleted' });
    expect((await getToken(chain, 1, parent + count))?.owner).toBe(addr(1, parent));
  });

  it('refuses a batch inside a batch', async () => {
    const chain = await chainWithTwoCollections();
    const events = await chain.call(ALICE, 'utility.batch', { calls: [{ name: 'utility.batch', args: { calls: [mint(1)] } }] });
    expect(events.ok).toBe(false);
  });
});

describe('utility.batchAll', () => {
  it('is all or nothing: one failure fails the extrinsic with that error and reverts every call', async () => {
    const chain = await chainWithTwoCollections();
    const error = await chain.error(ALICE, 'utility.batchAll', { calls: [mint(1), mint(2)] });
    const single = await chain.error(ALICE, 'unique.createItem', mint(2).args as never);
    expect(error).toBe(single);
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(0);
  });

  it('completes every call when none fails', async () => {
    const chain = await chainWithTwoCollections();
    const events = await chain.ok(ALICE, 'utility.batchAll', { calls: [mint(1), mint(1)] });
    expect(events.at(-1)).toMatchObject({ section: 'utility', method: 'BatchCompleted' });
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(2);
  });
});
