// A Fungible collection's token calls (chain: pallets/fungible). The collection has one token, id 0,
// whose amounts are u128 balances: mint (`createItem`, `createMultipleItemsEx`), `transfer`,
// `transferFrom`, `approve`, `burnItem`, `burnFrom`. Checks come in the chain's order.
import type { CallHandler, CallHandlers, DispatchContext } from '../context';
import { DispatchError } from '../errors';
import { U128_MAX, checkAllowedAmount, ensureCorrectReceiver, ensureListedIfRestricted, ignoresOwnedAmount, transfersEnabled } from '../pieces';
import { canonicalAddress, chainAccountMap } from '../tokens/addresses';
import { collectionUnits } from '../units';
import { checkNesting } from '../tokens/nesting';
import { nestPieces, unnestPieces } from '../tokens/piece-children';
import { ensureItems, ensureMayMint, loadTokenCollection } from '../tokens/shared';
import type { Address, CollectionRecord, MintItem } from '../types';
import { FT_KEYS, fungibleAllowance, fungibleBalance, fungibleSupply, putAmount } from './state';

/** The token id of every fungible amount. */
export const FUNGIBLE_TOKEN_ID = 0;

const tokenRef = (collection: CollectionRecord) => ({ collectionId: collection.id, tokenId: FUNGIBLE_TOKEN_ID });

function ensureFungibleToken(collection: CollectionRecord, tokenId: number): void {
  if (tokenId !== FUNGIBLE_TOKEN_ID) {
    throw new DispatchError('common.FungibleItemsHaveNoId', `Collection ${collection.id} is Fungible: its one token has id 0, not ${tokenId}`);
  }
}

function tooLow(collection: CollectionRecord, who: Address, balance: bigint, amount: bigint, verb: string): DispatchError {
  return new DispatchError(
    'common.TokenValueTooLow',
    `${who} holds ${collectionUnits(collection, balance)} of collection ${collection.id} and cannot ${verb} ${collectionUnits(collection, amount)}`
  );
}

function overflow(what: string): DispatchError {
  return new DispatchError('arithmetic.Overflow', `${what} would exceed 2^128 - 1`);
}

/** The chain's `create_multiple_items`: `amounts` per recipient, in the chain's map order (`chainAccountMap`). */
export async function mintFungible(ctx: DispatchContext, collection: CollectionRecord, amounts: ReadonlyMap<Address, bigint>): Promise<void> {
  const { state, signer } = ctx;
  const recipients = [...amounts.keys()];
  await ensureMayMint(ctx, collection, recipients);
  let supply = await fungibleSupply(state, collection.id);
  for (const amount of amounts.values()) supply += amount;
  if (supply > U128_MAX) throw overflow(`The total supply of collection ${collection.id}`);
  for (const to of recipients) await checkNesting(ctx, signer, to, tokenRef(collection));
  const updated: [Address, bigint, bigint][] = [];
  for (const [to, amount] of amounts) {
    const balance = (await fungibleBalance(state, collection.id, to)) + amount;
    if (balance > U128_MAX) throw overflow(`The balance of ${to} in collection ${collection.id}`);
    updated.push([to, amount, balance]);
  }
  await putAmount(state, FT_KEYS.supply(collection.id), supply);
  for (const [to, amount, balance] of updated) {
    await putAmount(state, FT_KEYS.balance(collection.id, to), balance);
    if (balance > 0n) await nestPieces(state, to, tokenRef(collection));
    ctx.emit('common', 'ItemCreated', { collectionId: collection.id, tokenId: FUNGIBLE_TOKEN_ID, owner: to, amount: amount.toString() });
  }
}

/** The chain's `transfer_internal`; the depositor is who nests the amount when `to` is a token. */
async function transferFungible(ctx: DispatchContext, collection: CollectionRecord, depositor: Address, from: Address, to: Address, amount: bigint): Promise<void> {
  const { state } = ctx;
  const id = collection.id;
  transfersEnabled(ctx, collection);
  await ensureListedIfRestricted(state, collection, from, to);
  ensureCorrectReceiver(to, `collection ${id}`);
  const fromBalance = await fungibleBalance(state, id, from);
  if (fromBalance < amount) throw tooLow(collection, from, fromBalance, amount, 'send');
  if (from !== to && amount !== 0n) {
    const toBalance = (await fungibleBalance(state, id, to)) + amount;
    if (toBalance > U128_MAX) throw overflow(`The balance of ${to} in collection ${id}`);
    await checkNesting(ctx, depositor, to, tokenRef(collection));
    await nestPieces(state, to, tokenRef(collection));
    await putAmount(state, FT_KEYS.balance(id, from), fromBalance - amount);
    if (fromBalance === amount) await unnestPieces(state, from, tokenRef(collection));
    await putAmount(state, FT_KEYS.balance(id, to), toBalance);
  }
  ctx.emit('common', 'Transfer', { collectionId: id, tokenId: FUNGIBLE_TOKEN_ID, from, to, amount: amount.toString() });
}

/** The chain's `burn`: the owner's balance and the total supply both shrink by `amount`. */
async function burnFungible(ctx: DispatchContext, collection: CollectionRecord, owner: Address, amount: bigint): Promise<void> {
  const { state } = ctx;
  const id = collection.id;
  const supply = await fungibleSupply(state, id);
  const balance = await fungibleBalance(state, id, owner);
  if (supply < amount || balance < amount) throw tooLow(collection, owner, balance, amount, 'burn');
  await ensureListedIfRestricted(state, collection, owner);
  await putAmount(state, FT_KEYS.balance(id, owner), balance - amount);
  if (balance === amount) await unnestPieces(state, owner, tokenRef(collection));
  await putAmount(state, FT_KEYS.supply(id), supply - amount);
  ctx.emit('common', 'ItemDestroyed', { collectionId: id, tokenId: FUNGIBLE_TOKEN_ID, owner, amount: amount.toString() });
}

async function setAllowance(ctx: DispatchContext, collection: CollectionRecord, owner: Address, spender: Address, amount: bigint): Promise<void> {
  await putAmount(ctx.state, FT_KEYS.allowance(collection.id, owner, spender), amount);
  ctx.emit('common', 'Approved', { collectionId: collection.id, tokenId: FUNGIBLE_TOKEN_ID, owner, spender, amount: amount.toString() });
}

/** The allowance left once `spender` moved `amount` for `from`, or null when it does not change. */
function allowanceAfter(ctx: DispatchContext, collection: CollectionRecord, spender: Address, from: Address, amount: bigint): Promise<bigint | null> {
  return checkAllowedAmount(ctx, collection, spender, from, amount, () => fungibleAllowance(ctx.state, collection.id, from, spender), `collection ${collection.id}`, (raw) =>
    collectionUnits(collection, raw)
  );
}

async function spendAllowance(ctx: DispatchContext, collection: CollectionRecord, from: Address, spender: Address, allowance: bigint | null): Promise<void> {
  if (allowance !== null) await setAllowance(ctx, collection, from, spender, allowance);
}

function amountsOf(owner: Address, amount: bigint | undefined): Map<Address, bigint> {
  return new Map([[canonicalAddress(owner), amount ?? 0n]]);
}

function ensureFungibleData(collection: CollectionRecord, kind: string | undefined): void {
  if (kind !== 'Fungible') {
    throw new DispatchError(
      'common.NotFungibleDataUsedToMintFungibleCollectionToken',
      `Collection ${collection.id} is Fungible: only Fungible item data can mint in it, not ${kind ?? 'NFT'} data`
    );
  }
}

const createItem: CallHandler<'unique.createItem'> = async (ctx, { collectionId, owner, kind, amount }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureFungibleData(collection, kind);
  await mintFungible(ctx, collection, amountsOf(owner, amount));
};

const createMultipleItemsEx: CallHandler<'unique.createMultipleItemsEx'> = async (ctx, { collectionId, items, kind }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureFungibleData(collection, kind);
  await mintFungible(ctx, collection, chainAccountMap(items.map((i: MintItem) => [canonicalAddress(i.owner), i.amount ?? 0n] as const)));
};

/** Every item for one owner: the chain mints their sum. */
const createMultipleItems: CallHandler<'unique.createMultipleItems'> = async (ctx, { collectionId, owner, items }) => {
  ensureItems(items);
  const collection = await loadTokenCollection(ctx.state, collectionId);
  let sum = 0n;
  // In the chain's order: each item's kind, then the running sum (an overflow stops before a later item).
  for (const item of items) {
    ensureFungibleData(collection, item.kind);
    sum += item.amount ?? 0n;
    if (sum > U128_MAX) throw overflow(`The amount minted in collection ${collectionId}`);
  }
  await mintFungible(ctx, collection, amountsOf(owner, sum));
};

const transfer: CallHandler<'unique.transfer'> = async (ctx, { to, collectionId, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureFungibleToken(collection, tokenId);
  await transferFungible(ctx, collection, ctx.signer, ctx.signer, canonicalAddress(to), value);
};

const transferFrom: CallHandler<'unique.transferFrom'> = async (ctx, { from, to, collectionId, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureFungibleToken(collection, tokenId);
  const owner = canonicalAddress(from);
  const allowance = await allowanceAfter(ctx, collection, ctx.signer, owner, value);
  await transferFungible(ctx, collection, ctx.signer, owner, canonicalAddress(to), value);
  await spendAllowance(ctx, collection, owner, ctx.signer, allowance);
};

const approve: CallHandler<'unique.approve'> = async (ctx, { spender: rawSpender, collectionId, tokenId, amount }) => {
  const { state, signer } = ctx;
  const collection = await loadTokenCollection(state, collectionId);
  ensureFungibleToken(collection, tokenId);
  const spender = canonicalAddress(rawSpender);
  await ensureListedIfRestricted(state, collection, signer, spender);
  const balance = await fungibleBalance(state, collectionId, signer);
  if (balance < amount && !ignoresOwnedAmount(ctx, collection, signer)) {
    throw new DispatchError(
      'common.CantApproveMoreThanOwned',
      `${signer} holds ${collectionUnits(collection, balance)} of collection ${collectionId} and cannot approve ${collectionUnits(collection, amount)}`
    );
  }
  await setAllowance(ctx, collection, signer, spender, amount);
};

const burnItem: CallHandler<'unique.burnItem'> = async (ctx, { collectionId, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureFungibleToken(collection, tokenId);
  await burnFungible(ctx, collection, ctx.signer, value);
};

const burnFrom: CallHandler<'unique.burnFrom'> = async (ctx, { collectionId, from, tokenId, value }) => {
  const collection = await loadTokenCollection(ctx.state, collectionId);
  ensureFungibleToken(collection, tokenId);
  const owner = canonicalAddress(from);
  const allowance = await allowanceAfter(ctx, collection, ctx.signer, owner, value);
  await burnFungible(ctx, collection, owner, value);
  await spendAllowance(ctx, collection, owner, ctx.signer, allowance);
};

const noProperties: CallHandler<'unique.setTokenProperties' | 'unique.deleteTokenProperties' | 'unique.setTokenPropertyPermissions'> = async (ctx, { collectionId }) => {
  await loadTokenCollection(ctx.state, collectionId);
  throw new DispatchError('fungible.SettingPropertiesNotAllowed', `Collection ${collectionId} is Fungible: its token has no properties`);
};

/** The chain's fungible `set_allowance_for_all`: a Fungible collection has no operators. */
const noAllowanceForAll: CallHandler<'unique.setAllowanceForAll'> = async (ctx, { collectionId }) => {
  await loadTokenCollection(ctx.state, collectionId);
  throw new DispatchError('fungible.SettingAllowanceForAllNotAllowed', `Collection ${collectionId} is Fungible: it has no operator for all tokens; approve an amount instead`);
};

/** The token calls of a Fungible collection. */
export const FUNGIBLE_CALLS: CallHandlers = {
  'unique.createItem': createItem,
  'unique.createMultipleItemsEx': createMultipleItemsEx,
  'unique.createMultipleItems': createMultipleItems,
  'unique.transfer': transfer,
  'unique.transferFrom': transferFrom,
  'unique.approve': approve,
  'unique.setAllowanceForAll': noAllowanceForAll,
  'unique.burnItem': burnItem,
  'unique.burnFrom': burnFrom,
  'unique.setTokenProperties': noProperties,
  'unique.deleteTokenProperties': noProperties,
  'unique.setTokenPropertyPermissions': noProperties
};
