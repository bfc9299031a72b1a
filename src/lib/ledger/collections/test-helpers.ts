// Helpers shared by the collection call tests (not a test file itself).
import { ALICE, BOB, CHARLIE, DAVE, EVE, TestChain } from '../testing/harness';
import type { RuleSetName } from '../rules';
import type { Address, CallArgs, CallName, CollectionRecord, CreateCollectionData } from '../types';

export const RULE_SET_NAMES: RuleSetName[] = ['spec', 'unique'];

/** A chain whose dev accounts (ALICE … EVE) each hold 1,000 units. */
export async function fundedChain(rules: RuleSetName = 'spec'): Promise<TestChain> {
  const chain = new TestChain(rules);
  await chain.fund(ALICE, BOB, CHARLIE, DAVE, EVE);
  return chain;
}

export function collectionData(overrides: Partial<CreateCollectionData> = {}): CreateCollectionData {
  return {
    mode: 'NFT',
    decimals: 0,
    name: 'Test collection',
    description: 'A collection for tests',
    tokenPrefix: 'TST',
    tokenPropertyPermissions: [],
    properties: [],
    adminList: [],
    ...overrides
  };
}

/** Create a collection signed by `owner`; returns its id. */
export async function createCollection(chain: TestChain, owner: Address = ALICE, overrides: Partial<CreateCollectionData> = {}): Promise<number> {
  const events = await chain.ok(owner, 'unique.createCollectionEx', { data: collectionData(overrides) });
  const created = events.find((e) => e.method === 'CollectionCreated');
  if (!created) throw new Error('no CollectionCreated event');
  return created.data.collectionId as number;
}

export async function getCollection(chain: TestChain, id: number): Promise<CollectionRecord | undefined> {
  return chain.read((tx) => tx.get('collections', id));
}

export async function mustGetCollection(chain: TestChain, id: number): Promise<CollectionRecord> {
  const c = await getCollection(chain, id);
  if (!c) throw new Error(`collection ${id} missing`);
  return c;
}

/** Change a stored collection directly (test setup, bypassing the calls). */
export async function patchCollection(chain: TestChain, id: number, patch: (c: CollectionRecord) => void): Promise<void> {
  await chain.store.write(async (tx) => {
    const c = await tx.get('collections', id);
    if (!c) throw new Error(`collection ${id} missing`);
    patch(c);
    await tx.put('collections', c);
  });
}

/** Put a live token into a collection directly (token calls belong to another module). */
export async function addToken(chain: TestChain, collectionId: number, owner: Address = ALICE): Promise<number> {
  let tokenId = 0;
  await chain.store.write(async (tx) => {
    const c = await tx.get('collections', collectionId);
    if (!c) throw new Error(`collection ${collectionId} missing`);
    tokenId = c.tokensMinted + 1;
    await tx.put('tokens', { collectionId, tokenId, owner, properties: [] });
    await tx.put('collections', { ...c, tokensMinted: tokenId });
  });
  return tokenId;
}

/** Burn a token directly: drop the row and count it burnt. */
export async function burnToken(chain: TestChain, collectionId: number, tokenId: number): Promise<void> {
  await chain.store.write(async (tx) => {
    const c = await tx.get('collections', collectionId);
    if (!c) throw new Error(`collection ${collectionId} missing`);
    await tx.delete('tokens', [collectionId, tokenId]);
    await tx.put('collections', { ...c, tokensBurnt: c.tokensBurnt + 1 });
  });
}

/** `{name: 'section.Name', message}` of a call that must fail. */
export async function failure<N extends CallName>(
  chain: TestChain,
  signer: Address,
  name: N,
  args: CallArgs[N]
): Promise<{ name: string; message: string }> {
  const r = await chain.call(signer, name, args);
  if (r.ok) throw new Error(`${name} succeeded but was expected to fail`);
  return { name: `${r.error.section}.${r.error.errorName}`, message: r.error.message };
}

export async function balanceOf(chain: TestChain, address: Address): Promise<bigint> {
  return chain.read(async (tx) => (await tx.get('accounts', address))?.free ?? 0n);
}

export async function metaValue(chain: TestChain, key: string): Promise<unknown> {
  return chain.read(async (tx) => (await tx.get('meta', key))?.value);
}
