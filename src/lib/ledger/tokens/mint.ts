// Minting (chain §5.8): `unique.createItem` and `unique.createMultipleItemsEx`.
import { effectiveLimits } from '../access';
import { MAX_ITEMS_PER_BATCH, MAX_PROPERTIES_PER_ITEM } from '../constants';
import type { CallHandler, DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { Address, MintItem, TokenRecord, TokenRef } from '../types';
import { canonicalAddress, isEthereumZero } from './addresses';
import { checkNesting, withOwner } from './nesting';
import { writeTokenProperties } from './property-writer';
import { ensureItems, ensureMayMint, loadNftCollection } from './shared';

/**
 * Mint `items` in one all-or-nothing step; returns the new token ids (consecutive from
 * `tokensMinted + 1`, in input order).
 */
export async function mintTokens(ctx: DispatchContext, collectionId: number, items: readonly MintItem[]): Promise<number[]> {
  if (items.length > MAX_ITEMS_PER_BATCH) {
    throw new DispatchError('unique.TooManyItems', `At most ${MAX_ITEMS_PER_BATCH} tokens can be minted in one call, got ${items.length}`);
  }
  items.forEach((item, i) => {
    if (item.properties.length > MAX_PROPERTIES_PER_ITEM) {
      throw new DispatchError('common.PropertyLimitReached', `Token ${i + 1} of the mint has ${item.properties.length} properties; at most ${MAX_PROPERTIES_PER_ITEM} are allowed`);
    }
  });
  const { state, signer, rules } = ctx;
  const collection = await loadNftCollection(state, collectionId);
  const recipients = items.map((item) => canonicalAddress(item.owner));

  await ensureMayMint(ctx, collection, recipients);

  for (const to of recipients) {
    if (isEthereumZero(to)) throw new DispatchError('common.AddressIsZero', `Cannot mint a token of collection ${collectionId} to the zero address ${to}`);
  }

  const limits = effectiveLimits(collection.limits, rules);
  const first = collection.tokensMinted + 1;
  if (collection.tokensMinted + items.length > limits.tokenLimit) {
    throw new DispatchError(
      'common.CollectionTokenLimitExceeded',
      `Cannot mint ${items.length} token(s) in collection ${collectionId}: ${collection.tokensMinted} of its token limit ${limits.tokenLimit} were already minted (burned tokens count)`
    );
  }

  const balances = new Map<Address, number>();
  for (const to of recipients) {
    const balance = (balances.get(to) ?? (await state.countOwned(collectionId, to))) + 1;
    balances.set(to, balance);
    if (balance > limits.accountTokenOwnershipLimit) {
      throw new DispatchError(
        'common.AccountTokenLimitExceeded',
        `${to} would own ${balance} tokens of collection ${collectionId}, more than its account token ownership limit ${limits.accountTokenOwnershipLimit}`
      );
    }
  }

  // Nesting checks for every token first (the minter is the depositor), then the writes.
  const parents: (TokenRef | null)[] = [];
  for (let i = 0; i < recipients.length; i++) {
    parents.push(await checkNesting(ctx, signer, recipients[i], { collectionId, tokenId: first + i }));
  }

  const ids: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const tokenId = first + i;
    const properties = await writeTokenProperties(ctx, {
      collection,
      tokenId,
      properties: [],
      mode: { kind: 'mint', mintTargetIsSigner: recipients[i] === signer },
      updates: items[i].properties
    });
    const token: TokenRecord = withOwner({ collectionId, tokenId, owner: recipients[i], properties }, recipients[i], parents[i]);
    await state.put('tokens', token);
    ids.push(tokenId);
  }
  ids.forEach((tokenId, i) => ctx.emit('common', 'ItemCreated', { collectionId, tokenId, owner: recipients[i], amount: 1 }));
  await state.put('collections', { ...collection, tokensMinted: collection.tokensMinted + items.length });
  return ids;
}

/** Fungible or ReFungible item data in an NFT collection (checked after the collection is found). */
async function ensureNftData(ctx: DispatchContext, collectionId: number, kind: string | undefined): Promise<void> {
  await loadNftCollection(ctx.state, collectionId);
  if (kind !== undefined) {
    throw new DispatchError('nonfungible.NotNonfungibleDataUsedToMintFungibleCollectionToken', `Collection ${collectionId} is an NFT collection: ${kind} item data cannot mint in it`);
  }
}

export const createItem: CallHandler<'unique.createItem'> = async (ctx, { collectionId, owner, properties, kind }) => {
  await ensureNftData(ctx, collectionId, kind);
  await mintTokens(ctx, collectionId, [{ owner, properties }]);
};

export const createMultipleItemsEx: CallHandler<'unique.createMultipleItemsEx'> = async (ctx, { collectionId, items, kind }) => {
  await ensureNftData(ctx, collectionId, kind);
  await mintTokens(ctx, collectionId, items);
};

export const createMultipleItems: CallHandler<'unique.createMultipleItems'> = async (ctx, { collectionId, owner, items }) => {
  ensureItems(items);
  for (const item of items) await ensureNftData(ctx, collectionId, item.kind);
  await mintTokens(ctx, collectionId, items.map(({ properties }) => ({ owner, properties })));
};
