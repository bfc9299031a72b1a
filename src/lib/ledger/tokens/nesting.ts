// The nesting model (chain §6): parent lookup, the budgeted walk to the topmost owner with cycle
// detection, the nesting check done when a token is sent to a token address, and the bundle reads.
import { isOwnerOrAdmin, loadCollection } from '../access';
import { TOPMOST_OWNER_BUDGET } from '../constants';
import type { DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { StateTx } from '../store';
import type { Address, TokenRecord, TokenRef } from '../types';
import { isCollectionAddress, parseNestingAddress, tokenNestingAddress } from './addresses';
import { PARTIAL_OWNER } from '../refungible/state';
import { pieceChildrenOf } from './piece-children';
import { tokenLabel } from './shared';

/** A nesting budget: every step of a parent walk consumes one unit (chain: 5 per extrinsic). */
export interface NestingBudget {
  remaining: number;
}

/** A token of a bundle with its nested tokens, recursively. */
export interface BundleNode {
  token: TokenRecord;
  children: BundleNode[];
}

const refKey = (r: TokenRef) => `${r.collectionId}:${r.tokenId}`;
export const sameRef = (a: TokenRef, b: TokenRef | null | undefined) =>
  !!b && a.collectionId === b.collectionId && a.tokenId === b.tokenId;
const byRef = (a: TokenRef, b: TokenRef) => a.collectionId - b.collectionId || a.tokenId - b.tokenId;

/** The parent token of a token (its owner is a nesting address), or null for a top-level token. */
export function parentOf(token: TokenRecord): TokenRef | null {
  if (token.parentCollectionId !== undefined && token.parentTokenId !== undefined) {
    return { collectionId: token.parentCollectionId, tokenId: token.parentTokenId };
  }
  return parseNestingAddress(token.owner);
}

function consume(budget: NestingBudget, start: TokenRef): void {
  if (budget.remaining <= 0) {
    throw new DispatchError(
      'structure.DepthLimit',
      `Nesting depth limit reached while walking up from ${tokenLabel(start.collectionId, start.tokenId)}: tokens can be nested at most 5 levels deep`
    );
  }
  budget.remaining--;
}

/** `structure.TokenNotFound`, or `common.CollectionNotFound` when the whole collection is missing. */
async function missingLink(state: StateTx, ref: TokenRef): Promise<never> {
  if (ref.collectionId !== 0 && !(await state.get('collections', ref.collectionId))) {
    throw new DispatchError('common.CollectionNotFound', `Collection not found: ${ref.collectionId}`);
  }
  throw new DispatchError('structure.TokenNotFound', `Token not found: ${tokenLabel(ref.collectionId, ref.tokenId)}`);
}

/**
 * The account at the top of `start`'s chain of owners (the chain's `get_checked_topmost_owner`).
 * Each step costs one unit of `budget` (`structure.DepthLimit` when it runs out); a missing link
 * is `structure.TokenNotFound`. With `forNest` (the token about to be put under `start`) a cycle
 * — `start` is `forNest` or `forNest` is one of its ancestors — is `structure.OuroborosDetected`.
 */
export async function walkToTopmostOwner(
  state: StateTx,
  start: TokenRef,
  budget: NestingBudget,
  forNest: TokenRef | null = null
): Promise<Address> {
  const ouroboros = () =>
    new DispatchError(
      'structure.OuroborosDetected',
      forNest
        ? `Cannot nest ${tokenLabel(forNest.collectionId, forNest.tokenId)} under ${tokenLabel(start.collectionId, start.tokenId)}: a token cannot be nested under itself or one of its own descendants`
        : `The owners of ${tokenLabel(start.collectionId, start.tokenId)} form a cycle`
    );
  if (sameRef(start, forNest)) throw ouroboros();
  const visited = new Set([refKey(start)]);
  let current = start;
  for (;;) {
    consume(budget, start);
    const token = await state.get('tokens', [current.collectionId, current.tokenId]);
    if (!token) return missingLink(state, current);
    const parent = parentOf(token);
    if (!parent) return token.owner;
    if (visited.has(refKey(parent)) || sameRef(parent, forNest)) throw ouroboros();
    visited.add(refKey(parent));
    current = parent;
  }
}

/**
 * Topmost owner of a token (the chain's `topmostTokenOwner` query, budget 10):
 * `structure.TokenNotFound` for a missing token, `structure.DepthLimit` past the budget, null for
 * a ReFungible token split between holders (the structure pallet's `Parent::MultipleOwners`).
 */
export async function topmostOwner(state: StateTx, collectionId: number, tokenId: number, budget = TOPMOST_OWNER_BUDGET): Promise<Address | null> {
  const owner = await walkToTopmostOwner(state, { collectionId, tokenId }, { remaining: budget });
  return owner === PARTIAL_OWNER ? null : owner;
}

/**
 * The nesting check for sending `child` to `to` (chain §6), with the depositor's rights checked in
 * the PARENT's collection; spends `ctx.nestingBudget`. Returns the parent token when `to` is a
 * token address, null for an ordinary account (nothing to check).
 */
export async function checkNesting(ctx: DispatchContext, depositor: Address, to: Address, child: TokenRef): Promise<TokenRef | null> {
  if (isCollectionAddress(to)) {
    throw new DispatchError(
      'structure.CantNestTokenUnderCollection',
      `Cannot send ${tokenLabel(child.collectionId, child.tokenId)} to ${to}: it is a collection address, and tokens can only be nested under tokens`
    );
  }
  const parent = parseNestingAddress(to);
  if (!parent) return null;
  const parentCollection = await loadCollection(ctx.state, parent.collectionId);
  if (parentCollection.mode === 'Fungible') {
    throw new DispatchError('fungible.FungibleDisallowsNesting', `Cannot nest under collection ${parent.collectionId}: it is a Fungible collection, and only NFTs can be parents`);
  }
  if (parentCollection.mode === 'ReFungible') {
    throw new DispatchError('refungible.RefungibleDisallowsNesting', `Cannot nest under collection ${parent.collectionId}: it is a ReFungible collection, and only NFTs can be parents`);
  }
  const nesting = parentCollection.permissions.nesting;
  const parentLabel = tokenLabel(parent.collectionId, parent.tokenId);
  let allowed = false;
  if (nesting.tokenOwner) {
    allowed = (await walkToTopmostOwner(ctx.state, parent, ctx.nestingBudget, child)) === depositor;
  }
  if (!allowed && nesting.collectionAdmin && isOwnerOrAdmin(parentCollection, depositor)) {
    await walkToTopmostOwner(ctx.state, parent, ctx.nestingBudget, child);
    allowed = true;
  }
  if (!allowed) {
    const who = [
      nesting.tokenOwner ? 'the topmost owner of the parent token' : null,
      nesting.collectionAdmin ? `the owner or an admin of collection ${parent.collectionId}` : null
    ].filter(Boolean);
    throw new DispatchError(
      'common.UserIsNotAllowedToNest',
      who.length === 0
        ? `Nesting is disabled in collection ${parent.collectionId}: ${depositor} cannot nest ${tokenLabel(child.collectionId, child.tokenId)} under ${parentLabel}`
        : `${depositor} is not allowed to nest under ${parentLabel}: collection ${parent.collectionId} lets only ${who.join(' or ')} nest tokens`
    );
  }
  if (nesting.restricted !== null && !nesting.restricted.includes(child.collectionId)) {
    throw new DispatchError(
      'common.SourceCollectionIsNotAllowedToNest',
      `Tokens of collection ${child.collectionId} may not be nested under tokens of collection ${parent.collectionId} (its nesting is restricted to collections [${nesting.restricted.join(', ')}])`
    );
  }
  return parent;
}

/** The parent fields of a token record for a new owner: set for a token address, removed otherwise. */
export function withOwner(token: TokenRecord, owner: Address, parent: TokenRef | null): TokenRecord {
  const { parentCollectionId: _c, parentTokenId: _t, ...rest } = token;
  return parent ? { ...rest, owner, parentCollectionId: parent.collectionId, parentTokenId: parent.tokenId } : { ...rest, owner };
}

/**
 * Direct children of a token that are token records, sorted by collection id then token id: the
 * nested NFTs and the ReFungible tokens it holds pieces of (a Fungible amount has no record).
 */
export async function childrenOf(state: StateTx, ref: TokenRef): Promise<TokenRecord[]> {
  // Both lookups at once: on IndexedDB each await is a round of the event loop.
  const [children, pieces] = await Promise.all([state.childrenOf(ref.collectionId, ref.tokenId), pieceChildrenOf(state, ref)]);
  const held = await Promise.all(pieces.map((piece) => state.get('tokens', [piece.collectionId, piece.tokenId])));
  for (const token of held) if (token) children.push(token);
  return children.sort(byRef);
}

/** Every direct child of a token as a reference (the chain's `TokenChildren`): Fungible ones have token id 0. */
export async function childRefsOf(state: StateTx, ref: TokenRef): Promise<TokenRef[]> {
  const [tokens, pieces] = await Promise.all([state.childrenOf(ref.collectionId, ref.tokenId), pieceChildrenOf(state, ref)]);
  return [...tokens.map(({ collectionId, tokenId }) => ({ collectionId, tokenId })), ...pieces].sort(byRef);
}

/**
 * The topmost token of the bundle `ref` belongs to (the token itself when it is not nested).
 * `structure.TokenNotFound` for a missing token, `structure.DepthLimit` past the budget.
 */
export async function bundleRoot(state: StateTx, ref: TokenRef, budget = TOPMOST_OWNER_BUDGET): Promise<TokenRecord> {
  let token = await state.get('tokens', [ref.collectionId, ref.tokenId]);
  if (!token) throw new DispatchError('structure.TokenNotFound', `Token not found: ${tokenLabel(ref.collectionId, ref.tokenId)}`);
  const visited = new Set([refKey(ref)]);
  for (let parent = parentOf(token); parent; parent = parentOf(token)) {
    if (visited.has(refKey(parent))) {
      throw new DispatchError('structure.OuroborosDetected', `The owners of ${tokenLabel(ref.collectionId, ref.tokenId)} form a cycle`);
    }
    visited.add(refKey(parent));
    if (budget-- <= 0) {
      throw new DispatchError('structure.DepthLimit', `Recursion depth exceeded while looking for the topmost token of ${tokenLabel(ref.collectionId, ref.tokenId)}`);
    }
    const next = await state.get('tokens', [parent.collectionId, parent.tokenId]);
    if (!next) {
      throw new DispatchError('structure.TokenNotFound', `Parent token not found: ${tokenLabel(parent.collectionId, parent.tokenId)} (parent of ${tokenLabel(token.collectionId, token.tokenId)})`);
    }
    token = next;
  }
  return token;
}

/**
 * The tree of tokens nested under `root` (children from the children index, sorted by id).
 * Children deeper than `maxDepth` levels below the root → `structure.DepthLimit`
 * ("Recursion depth exceeded"), which the chain's rules never let happen.
 */
export async function bundleTree(state: StateTx, root: TokenRef | TokenRecord, maxDepth = 5): Promise<BundleNode> {
  const rootToken = 'owner' in root ? root : await state.get('tokens', [root.collectionId, root.tokenId]);
  if (!rootToken) throw new DispatchError('structure.TokenNotFound', `Token not found: ${tokenLabel(root.collectionId, root.tokenId)}`);
  const build = async (token: TokenRecord, depth: number): Promise<BundleNode> => {
    const children = await childrenOf(state, token);
    if (children.length > 0 && depth >= maxDepth) {
      throw new DispatchError(
        'structure.DepthLimit',
        `Recursion depth exceeded: ${tokenLabel(token.collectionId, token.tokenId)} has nested tokens more than ${maxDepth} levels below the topmost token`
      );
    }
    const nodes: BundleNode[] = [];
    for (const child of children) nodes.push(await build(child, depth + 1));
    return { token, children: nodes };
  };
  return build(rootToken, 0);
}

/** Whether a token is part of a bundle: it is nested or has nested tokens. False for a missing token. */
export async function isBundle(state: StateTx, ref: TokenRef): Promise<boolean> {
  const token = await state.get('tokens', [ref.collectionId, ref.tokenId]);
  if (!token) return false;
  return parentOf(token) !== null || (await childRefsOf(state, ref)).length > 0;
}

/** A token's parent as the REST `token/parent` read shows it, or null when not nested. */
export function parentWithAddress(token: TokenRecord): (TokenRef & { address: Address }) | null {
  const parent = parentOf(token);
  return parent ? { ...parent, address: tokenNestingAddress(parent.collectionId, parent.tokenId) } : null;
}
