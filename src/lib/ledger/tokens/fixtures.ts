// Test fixtures for the token handlers: collections and allow-list rows written straight into the
// store (the collection-level calls are tested elsewhere), plus small call shorthands.
import { EMPTY_LIMITS } from '../access';
import type { TestChain } from '../testing/harness';
import { ALICE } from '../testing/harness';
import type {
  Address,
  CollectionLimits,
  CollectionPermissions,
  CollectionRecord,
  NestingPermissions,
  Property,
  PropertyKeyPermission,
  PropertyPermission,
  TokenRecord
} from '../types';
import { tokenNestingAddress } from './addresses';

export interface CollectionOverrides extends Partial<Omit<CollectionRecord, 'limits' | 'permissions' | 'tokenPropertyPermissions'>> {
  limits?: Partial<CollectionLimits>;
  permissions?: Partial<Omit<CollectionPermissions, 'nesting'>> & { nesting?: Partial<NestingPermissions> };
  /** `{key: permission}` or the stored list form. */
  tokenPropertyPermissions?: PropertyKeyPermission[] | Record<string, Partial<PropertyPermission>>;
}

export function permission(p: Partial<PropertyPermission> = {}): PropertyPermission {
  return { mutable: p.mutable ?? false, collectionAdmin: p.collectionAdmin ?? false, tokenOwner: p.tokenOwner ?? false };
}

/** A full CollectionRecord (id 1, owner ALICE, NFT, nothing set) with `overrides` applied. */
export function collectionRecord(overrides: CollectionOverrides = {}): CollectionRecord {
  const { limits, permissions, tokenPropertyPermissions, ...rest } = overrides;
  const tpp = Array.isArray(tokenPropertyPermissions)
    ? tokenPropertyPermissions
    : Object.entries(tokenPropertyPermissions ?? {}).map(([key, p]) => ({ key, permission: permission(p) }));
  return {
    id: 1,
    owner: ALICE,
    mode: 'NFT',
    decimals: 0,
    name: 'Test collection',
    description: 'For token tests',
    tokenPrefix: 'TST',
    sponsorship: null,
    readOnly: false,
    properties: [],
    admins: [],
    tokensMinted: 0,
    tokensBurnt: 0,
    ...rest,
    limits: { ...EMPTY_LIMITS, ...limits },
    permissions: {
      access: permissions?.access ?? 'Normal',
      mintMode: permissions?.mintMode ?? false,
      nesting: { tokenOwner: false, collectionAdmin: false, restricted: null, ...permissions?.nesting }
    },
    tokenPropertyPermissions: tpp.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  };
}

/** Write a collection row; returns it. */
export async function putCollection(chain: TestChain, overrides: CollectionOverrides = {}): Promise<CollectionRecord> {
  const record = collectionRecord(overrides);
  await chain.store.write(async (tx) => tx.put('collections', record));
  return record;
}

/** Change a stored collection row (e.g. limits or permissions after minting). */
export async function updateCollection(chain: TestChain, id: number, change: (c: CollectionRecord) => CollectionRecord): Promise<void> {
  await chain.store.write(async (tx) => {
    const c = await tx.get('collections', id);
    if (!c) throw new Error(`no collection ${id}`);
    await tx.put('collections', change(c));
  });
}

export async function allow(chain: TestChain, collectionId: number, ...addresses: Address[]): Promise<void> {
  await chain.store.write(async (tx) => {
    for (const address of addresses) await tx.put('allowList', { collectionId, address });
  });
}

export async function getCollection(chain: TestChain, id: number): Promise<CollectionRecord | undefined> {
  return chain.read((tx) => tx.get('collections', id));
}

export async function getToken(chain: TestChain, collectionId: number, tokenId: number): Promise<TokenRecord | undefined> {
  return chain.read((tx) => tx.get('tokens', [collectionId, tokenId]));
}

/** Mint one token (signed by `signer`, default the collection owner ALICE) and return its id. */
export async function mint(chain: TestChain, collectionId: number, owner: Address, properties: Property[] = [], signer: Address = ALICE): Promise<number> {
  const events = await chain.ok(signer, 'unique.createItem', { collectionId, owner, properties });
  const created = events.filter((e) => e.method === 'ItemCreated');
  return created[created.length - 1].data.tokenId as number;
}

/** Shorthand for a token's nesting address. */
export const addr = (collectionId: number, tokenId: number): Address => tokenNestingAddress(collectionId, tokenId);

/** Events as `section.method` strings. */
export const names = (events: { section: string; method: string }[]): string[] => events.map((e) => `${e.section}.${e.method}`);
