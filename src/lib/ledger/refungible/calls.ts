// A ReFungible collection's token calls (chain: pallets/refungible). A token is split into u128
// pieces held by any number of accounts: mint (`createItem`, `createMultipleItemsEx`), `transfer`,
// `transferFrom`, `approve`, `burnItem`, `burnFrom`, `repartition`, and token properties, which
// only the holder of every piece may write as "token owner". Checks come in the chain's order.
import { effectiveLimits } from '../access';
import { MAX_ITEMS_PER_BATCH } from '../constants';
import type { CallHandler, CallHandlers, DispatchContext } from '../context';
import { DispatchError } from '../errors';
import { U128_MAX, checkAllowedAmount, ensureCorrectReceiver, ensureListedIfRestricted, ignoresOwnedAmount, transfersEnabled } from '../pieces';
import { canonicalAddress, chainAccountMap } from '../tokens/addresses';
import { allowanceForAll, setAllowanceForAll } from '../tokens/allowance-for-all';
import { checkNesting } from '../tokens/nesting';
import { nestPieces, unnestPieces } from '../tokens/piece-children';
import { writeTokenProperties } from '../tokens/property-writer';
import { ensureItems, ensureMayMint, loadTokenCollection, tokenLabel } from '../tokens/shared';
import { deleteTokenProperties, setTokenProperties } from '../tokens/token-properties';
import type { Address, CollectionRecord, MintItem, Property, TokenRecord } from '../types';
import {
  type RefungiblePieces,
  ownedTokens,
  ownerOfPieces,
  pieceAllowance,
  readPieces,
  setOwned,
  writePieceAllowance,
  writePieces
} from './state';

/** The chain's MAX_REFUNGIBLE_PIECES: a token has at most 10^21 pieces. */
export const MAX_REFUNGIBLE_PIECES = 1_000_000_000_000_000_000_000n;

/** One token to mint: pieces per holder (zero amounts are skipped) and its properties. */
export interface RefungibleMint {
  users: ReadonlyMap<Address, bigint>;
  properties: readonly Property[];
}

function tooLow(collectionId: number, tokenId: number, who: Address, balance: bigint, amount: bigint, verb: string): DispatchError {
  return new DispatchError('common.TokenValueTooLow', `${who} holds ${balance} pieces of ${tokenLabel(collectionId, tokenId)} and cannot ${verb} ${amount}`);
}

/** The token row's owner and the pieces row, after `pieces` changed (null: the token is gone). */
async function savePieces(ctx: DispatchContext, collectionId: number, tokenId: number, pieces: RefungiblePieces): Promise<void> {
  await writePieces(ctx.state, collectionId, tokenId, pieces);
  const token = await ctx.state.get('tokens', [collectionId, tokenId]);
  const owner = ownerOfPieces(pieces);
  if (token && token.owner !== owner) await ctx.state.put('tokens', { ...token, owner });
}

/** Token ids the limit allows: `unique` follows the chain (minted must stay below tokenLimit), `spec` allows up to it. */
function ensureTokenLimit(ctx: DispatchContext, collection: CollectionRecord, count: number): void {
  const limit = effectiveLimits(collection.limits, ctx.rules).tokenLimit;
  const minted = collection.tokensMinted + count;
  const within = ctx.rules.refungibleTokenLimit === 'below-limit' ? minted < limit : minted <= limit;
  if (!within) {
    throw new DispatchError(
      'common.CollectionTokenLimitExceeded',
      `Cannot mint ${count} token(s) in collection ${collection.id}: ${collection.tokensMinted} were already minted and its token limit is ${limit}`
    );
  }
}

/** The chain's `create_multiple_items`: new tokens from consecutive ids; returns the ids. */
export async function mintRefungible(ctx: DispatchContext, collection: CollectionRecord, tokens: readonly RefungibleMint[]): Promise<number[]> {
  const { state, signer } = ctx;
  const id = collection.id;
  if (tokens.length > MAX_ITEMS_PER_BATCH) {
    throw new DispatchError('unique.TooManyItems', `At most ${MAX_ITEMS_PER_BATCH} tokens can be minted in one call, got ${tokens.length}`);
  }
  await ensureMayMint(ctx, collection, tokens.flatMap((t) => [...t.users.keys()]));
  for (const t of tokens) for (const owner of t.users.keys()) ensureCorrectReceiver(owner, `a token of collection ${id}`);
  const totals = tokens.map((t) => [...t.users.values()].reduce((sum, v) => sum + v, 0n));
  // The chain sums each token's pieces in a u128 first (several holders can overflow it).
  if (totals.some((total) => total > U128_MAX)) throw new DispatchError('arithmetic.Overflow', `The pieces of a token of collection ${id} would exceed 2^128 - 1`);
  for (const total of totals) {
    if (total > MAX_REFUNGIBLE_PIECES) {
      throw new DispatchError('refungible.WrongRefungiblePieces', `A refungible token has at most ${MAX_REFUNGIBLE_PIECES} pieces, not ${total}`);
    }
  }
  ensureTokenLimit(ctx, collection, tokens.length);
  const limit = effectiveLimits(collection.limits, ctx.rules).accountTokenOwnershipLimit;
  const counts = new Map<Address, number>();
  for (const t of tokens) {
    for (const owner of t.users.keys()) {
      const count = (counts.get(owner) ?? (await ownedTokens(state, id, owner)).length) + 1;
      counts.set(owner, count);
      if (count > limit) {
        throw new DispatchError('common.AccountTokenLimitExceeded', `${owner} would hold pieces of ${count} tokens of collection ${id}, more than its account token ownership limit ${limit}`);
      }
    }
  }
  const first = collection.tokensMinted + 1;
  for (let i = 0; i < tokens.length; i++) {
    for (const to of tokens[i].users.keys()) await checkNesting(ctx, signer, to, { collectionId: id, tokenId: first + i });
  }
  const ids: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tokenId = first + i;
    const holders = [...tokens[i].users].filter(([, amount]) => amount > 0n);
    const pieces: RefungiblePieces = { total: totals[i], balances: Object.fromEntries(holders) };
    const properties = await writeTokenProperties(ctx, {
      collection,
      tokenId,
      properties: [],
      mode: { kind: 'mint', mintTargetIsSigner: holders.every(([owner]) => owner === signer) },
      updates: tokens[i].properties
    });
    const token: TokenRecord = { collectionId: id, tokenId, owner: ownerOfPieces(pieces), properties };
    await state.put('tokens', token);
    await writePieces(state, id, tokenId, pieces);
    for (const [owner] of holders) {
      await setOwned(state, id, owner, tokenId, true);
      await nestPieces(state, owner, { collectionId: id, tokenId });
    }
    ids.push(tokenId);
  }
  await state.put('collections', { ...collection, tokensMinted: collection.tokensMinted + tokens.length });
  ids.forEach((tokenId, i) => {
    for (const [owner, amount] of tokens[i].users) {
      if (amount > 0n) ctx.emit('common', 'ItemCreated', { collectionId: id, tokenId, owner, amount: amount.toString() });
    }
  });
  return ids;
}

/** The chain's `transfer_internal`; the depositor is who nests the pieces when `to` is a token. */
async function transferPieces(ctx: DispatchContext, collection: CollectionRecord, depositor: Address, from: Address, to: Address, tokenId: number, amount: bigint): Promise<void> {
  const { state } = ctx;
  const id = collection.id;
  transfersEnabled(ctx, collection);
  await ensureListedIfRestricted(state, collection, from, to);
  ensureCorrectReceiver(to, tokenLabel(id, tokenId));
  const pieces = await readPieces(state, id, tokenId);
  const fromBalance = pieces?.balances[from] ?? 0n;
  if (fromBalance === 0n || fromBalance < amount) throw tooLow(id, tokenId, from, fromBalance, amount, 'send');
  if (pieces && from !== to && amount !== 0n) {
    const toBalance = pieces.balances[to] ?? 0n;
    if (toBalance === 0n) {
      const limit = effectiveLimits(collection.limits, ctx.rules).accountTokenOwnershipLimit;
      const count = (await ownedTokens(state, id, to)).length + 1;
      if (count > limit) {
        throw new DispatchError('common.AccountTokenLimitExceeded', `${to} would hold pieces of ${count} tokens of collection ${id}, more than its account token ownership limit ${limit}`);
      }
    }
    const ref = { collectionId: id, tokenId };
    await checkNesting(ctx, depositor, to, ref);
    await nestPieces(state, to, ref);
    const balances = { ...pieces.balances, [to]: toBalance + amount };
    if (fromBalance === amount) {
      delete balances[from];
      await unnestPieces(state, from, ref);
      await setOwned(state, id, from, tokenId, false);
    } else {
      balances[from] = fromBalance - amount;
    }
    if (toBalance === 0n) await setOwned(state, id, to, tokenId, true);
    await savePieces(ctx, id, tokenId, { total: pieces.total, balances });
  }
  ctx.emit('common', 'Transfer', { collectionId: id, tokenId, from, to, amount: amount.toString() });
}

/** The chain's `burn`: the token is gone once its last piece is burnt. */
async function burnPieces(ctx: DispatchContext, collection: CollectionRecord, owner: Address, tokenId: number, amount: bigint): Promise<void> {
  const { state } = ctx;
  const id = collection.id;
  const ref = { collectionId: id, tokenId };
  const pieces = await readPieces(state, id, tokenId);
  const balance = pieces?.balances[owner] ?? 0n;
  if (!pieces || balance === 0n || pieces.total < amount) throw tooLow(id, tokenId, owner, balance, amount, 'burn');
  const total = pieces.total - amount;
  if (balance < amount || (total === 0n && balance !== amount)) throw tooLow(id, tokenId, owner, balance, amount, 'burn');
  if (balance === amount) {
    await setOwned(state, id, owner, tokenId, false);
    await unnestPieces(state, owner, ref);
  }
  if (total === 0n) {
    await state.delete('tokens', [id, tokenId]);
    await writePieces(state, id, tokenId, null);
    await state.put('collections', { ...collection, tokensBurnt: collection.tokensBurnt + 1 });
  } else {
    const balances = { ...pieces.balances };
    if (balance === amount) delete balances[owner];
    else balances[owner] = balance - amount;
    await savePieces(ctx, id, tokenId, { total, balances });
  }
  ctx.emit('common', 'ItemDestroyed', { collectionId: id, tokenId, owner, amount: amount.toString() });
}

async function setAllowance(ctx: DispatchContext, collectionId: number, tokenId: number, owner: Address, spender: Address, amount: bigint): Promise<void> {
  await writePieceAllowance(ctx.state, collectionId, tokenId, owner, spender, amount);
  ctx.emit('common', 'Approved', { collectionId, tokenId, owner, spender, amount: amount.toString() });
}

function allowanceAfter(ctx: DispatchContext, collection: CollectionRecord, spender: Address, from: Address, tokenId: number, amount: bigint): Promise<bigint | null> {
  const read = () => pieceAllowance(ctx.state, collection.id, tokenId, from, spender);
  const isOperator = () => allowanceForAll(ctx.state, collection.id, from, spender);
  return checkAllowedAmount(ctx, collection, spender, from, amount, read, `pieces of ${tokenLabel(collection.id, tokenId)}`, String, isOperator);
}

async function spendAllowance(ctx: DispatchContext, collectionId: number, tokenId: number, from: Address, spender: Address, allowance: bigint | null): Promise<void> {
  if (allowance !== null) await setAllowance(ctx, collectionId, tokenId, from, spender, allowance);
}

function ensureRefungibleData(collection: CollectionRecord, kind: string | undefined): void {
  if (kind !== 'ReFungible' && kind !== 'RefungibleMultipleOwners') {
    throw new DispatchError(
      'refungible.NotRefungibleDataUsedToMintFungibleCollectionToken',
      `Collection ${collection.id} is ReFungible: only ReFungible item data can mint in it, not ${kind ?? 'NFT'} data`
    );
  }
}

const mintOf = (item: MintItem): RefungibleMint => ({ users: new Map([[canonicalAddress(item.owner), item.amount ?? 0n]]), properties: item.properties });

const createItem: CallHandler<'unique.createItem'> = async (ctx, { collectionId, owner, properties, kind, amount }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureRefungibleData(collection, kind);
  await mintRefungible(ctx, collection, [mintOf({ owner, properties, amount })]);
};

/** RefungibleMultipleItems: a token per item; RefungibleMultipleOwners: one token shared out among the items' owners. */
const createMultipleItemsEx: CallHandler<'unique.createMultipleItemsEx'> = async (ctx, { collectionId, items, kind, properties }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureRefungibleData(collection, kind);
  if (kind === 'RefungibleMultipleOwners') {
    // The chain's BTreeMap of owners: in account order, a repeated owner's last amount counts.
    const users = chainAccountMap(items.map((item) => [canonicalAddress(item.owner), item.amount ?? 0n] as const));
    await mintRefungible(ctx, collection, [{ users, properties: properties ?? [] }]);
  } else {
    await mintRefungible(ctx, collection, items.map(mintOf));
  }
};

/** One token per item, each wholly the owner's. */
const createMultipleItems: CallHandler<'unique.createMultipleItems'> = async (ctx, { collectionId, owner, items }) => {
  ensureItems(items);
  const collection = await loadTokenCollection(ctx.state, collectionId);
  for (const item of items) ensureRefungibleData(collection, item.kind);
  await mintRefungible(ctx, collection, items.map((item) => mintOf({ owner, properties: item.properties, amount: item.amount })));
};

const transfer: CallHandler<'unique.transfer'> = async (ctx, { to, collectionId, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  await transferPieces(ctx, collection, ctx.signer, ctx.signer, canonicalAddress(to), tokenId, value);
};

const transferFrom: CallHandler<'unique.transferFrom'> = async (ctx, { from, to, collectionId, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  const owner = canonicalAddress(from);
  const allowance = await allowanceAfter(ctx, collection, ctx.signer, owner, tokenId, value);
  await transferPieces(ctx, collection, ctx.signer, owner, canonicalAddress(to), tokenId, value);
  await spendAllowance(ctx, collectionId, tokenId, owner, ctx.signer, allowance);
};

const approve: CallHandler<'unique.approve'> = async (ctx, { spender: rawSpender, collectionId, tokenId, amount }) => {
  const { state, signer } = ctx;
  const collection = await loadTokenCollection(state, collectionId);
  const spender = canonicalAddress(rawSpender);
  await ensureListedIfRestricted(state, collection, signer, spender);
  ensureCorrectReceiver(spender, `an allowance of ${tokenLabel(collectionId, tokenId)}`);
  const pieces = await readPieces(state, collectionId, tokenId);
  const balance = pieces?.balances[signer] ?? 0n;
  if (balance < amount && !(ignoresOwnedAmount(ctx, collection, signer) && pieces)) {
    throw new DispatchError('common.CantApproveMoreThanOwned', `${signer} holds ${balance} pieces of ${tokenLabel(collectionId, tokenId)} and cannot approve ${amount}`);
  }
  await setAllowance(ctx, collectionId, tokenId, signer, spender, amount);
};

const burnItem: CallHandler<'unique.burnItem'> = async (ctx, { collectionId, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  await burnPieces(ctx, collection, ctx.signer, tokenId, value);
};

const burnFrom: CallHandler<'unique.burnFrom'> = async (ctx, { collectionId, from, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  const owner = canonicalAddress(from);
  const allowance = await allowanceAfter(ctx, collection, ctx.signer, owner, tokenId, value);
  await burnPieces(ctx, collection, owner, tokenId, value);
  await spendAllowance(ctx, collectionId, tokenId, owner, ctx.signer, allowance);
};

/** The chain's `repartition`: the holder of every piece splits the token into `amount` pieces. */
const repartition: CallHandler<'unique.repartition'> = async (ctx, { collectionId, tokenId, amount }) => {
  const { state, signer } = ctx;
  await loadTokenCollection(state, collectionId);
  if (amount > MAX_REFUNGIBLE_PIECES) {
    throw new DispatchError('refungible.WrongRefungiblePieces', `A refungible token has at most ${MAX_REFUNGIBLE_PIECES} pieces, not ${amount}`);
  }
  if (amount === 0n) throw new DispatchError('common.TokenValueTooLow', `${tokenLabel(collectionId, tokenId)} cannot be split into 0 pieces`);
  const pieces = await readPieces(state, collectionId, tokenId);
  const balance = pieces?.balances[signer] ?? 0n;
  if (!pieces || pieces.total !== balance) {
    throw new DispatchError('refungible.RepartitionWhileNotOwningAllPieces', `${signer} holds ${balance} of the ${pieces?.total ?? 0n} pieces of ${tokenLabel(collectionId, tokenId)}; only the holder of every piece can repartition it`);
  }
  await savePieces(ctx, collectionId, tokenId, { total: amount, balances: { [signer]: amount } });
  if (amount > pieces.total) ctx.emit('common', 'ItemCreated', { collectionId, tokenId, owner: signer, amount: (amount - pieces.total).toString() });
  if (amount < pieces.total) ctx.emit('common', 'ItemDestroyed', { collectionId, tokenId, owner: signer, amount: (pieces.total - amount).toString() });
};

/** `unique.repartition` in a collection that is not ReFungible. */
export const repartitionUnsupported: CallHandler<'unique.repartition'> = async (ctx, { collectionId }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  throw new DispatchError('unique.RepartitionCalledOnNonRefungibleCollection', `Collection ${collectionId} is ${collection.mode}: only ReFungible tokens can be repartitioned`);
};

/** The token calls of a ReFungible collection. */
export const REFUNGIBLE_CALLS: CallHandlers = {
  'unique.createItem': createItem,
  'unique.createMultipleItemsEx': createMultipleItemsEx,
  'unique.createMultipleItems': createMultipleItems,
  'unique.transfer': transfer,
  'unique.transferFrom': transferFrom,
  'unique.approve': approve,
  'unique.burnItem': burnItem,
  'unique.burnFrom': burnFrom,
  'unique.repartition': repartition,
  'unique.setAllowanceForAll': setAllowanceForAll,
  'unique.setTokenProperties': setTokenProperties,
  'unique.deleteTokenProperties': deleteTokenProperties
};
