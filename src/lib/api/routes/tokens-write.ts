// Token mutations (reference section 8). Each checks at build that the collection exists (400
// CollectionNotFoundError), that it is an NFT collection (400 naming the mode) and that every
// token it names exists (400 NotFoundError); everything else is the ledger's dispatch.
import { z } from 'zod';
import { parseNestingAddress, tokenNestingAddress } from '../../codec/nesting';
import type { QueryTx } from '../../ledger/store';
import { readPieces } from '../../ledger/refungible/state';
import { parentOf, sameRef } from '../../ledger/tokens/nesting';
import type { CollectionRecord, Property } from '../../ledger/types';
import { encodeTokenData, mergeByKey } from '../content/index';
import { validationError } from '../errors';
import { MAX_TOKENS_PER_CALL } from '../../limits';
import { mutation } from '../route';
import { address, collectionId, properties, tokenId, tokenRef } from '../schemas';
import { chainCall, content, propertyKeysBody, requireCollection, requireNftCollection, requireNftMode, requireToken } from './lookups';

const TAG = 'tokens';

const data = z
  .unknown()
  .optional()
  .describe('Token content (Unique schema v1): name, description, image, imagePreview, video, audio, spatialObject, file, attributes, encodedAttributes, royalties');

export const mintItem = z.object({
  owner: address.optional().describe('The new token owner; the signer when absent'),
  data,
  properties: properties.optional().describe('Raw token properties; override the keys generated from `data`')
});

const mintBody = mintItem.extend({ address, collectionId });

const createMultipleBody = z.object({
  address,
  collectionId,
  tokens: z
    .array(mintItem, { error: 'tokens must be an array of {owner?, data?, properties?}' })
    .min(1, { error: 'tokens must not be empty' })
    .max(MAX_TOKENS_PER_CALL, { error: `tokens must have at most ${MAX_TOKENS_PER_CALL} items` })
});

const tokenBody = z.object({ address, collectionId, tokenId });

const transferBody = z
  .object({
    collectionId,
    tokenId,
    address: address.optional().describe('The signer'),
    from: address.optional().describe('The token owner when the signer is not (an approved spender, or an admin); the signer when absent'),
    to: address
  })
  .refine((b) => b.address !== undefined || b.from !== undefined, { error: 'address (the signer) is required', path: ['address'] });

const amount = z
  .number({ error: 'value must be a number' })
  .int({ error: 'value must be an integer number' })
  .nonnegative({ error: 'value must not be negative' })
  .optional()
  .describe('Amount to move (default 1; an NFT is 1)');

/** Token properties of a mint: those generated from `data`, overridden by explicit ones. */
export function mintProperties(item: z.output<typeof mintItem>, collection: CollectionRecord, where = ''): Property[] {
  const generated = item.data === undefined || item.data === null ? [] : content(() => encodeTokenData(item.data, collection.properties), where);
  return mergeByKey(generated, item.properties ?? []);
}

/**
 * The collection and token a nest or unnest names: an NFT, or a ReFungible token whose pieces move
 * (`value` of them; the specification's nest "value … for refungible tokens"). Fungible has its routes.
 */
async function requireNestableToken(tx: QueryTx, collectionId: number, tokenId: number) {
  const collection = await requireCollection(tx, collectionId);
  if (collection.mode !== 'ReFungible') requireNftMode(collection);
  const token = await requireToken(tx, collectionId, tokenId);
  return { collection, token };
}

/**
 * The nesting address an unnest takes a ReFungible token's pieces from: `parent` when given (it
 * must hold some), else the one token holding them; pieces may sit under several.
 */
async function piecesParent(tx: QueryTx, collectionId: number, tokenId: number, parentGiven: unknown): Promise<string> {
  const holders = Object.keys((await readPieces(tx, collectionId, tokenId))?.balances ?? {});
  const parents = holders.filter((holder) => parseNestingAddress(holder) !== null);
  const token = { collectionId, tokenId };
  if (parentGiven !== undefined) {
    const parent = tokenRef.safeParse(parentGiven);
    if (!parent.success) throw validationError('parent must be {collectionId, tokenId}', token);
    const held = parents.find((holder) => sameRef(parseNestingAddress(holder)!, parent.data));
    if (!held) throw validationError(`Token is not nested under token ${parent.data.tokenId} of collection ${parent.data.collectionId}`, token);
    return held;
  }
  if (parents.length === 0) throw validationError('Token is not nested', token);
  if (parents.length > 1) {
    throw validationError(`Pieces of this token are nested under ${parents.length} tokens: name the one to take them from in \`parent\``, {
      ...token,
      parents: parents.map((holder) => parseNestingAddress(holder))
    });
  }
  return parents[0];
}

/** The NFT collection and the token a token mutation names. */
async function requireNftToken(tx: QueryTx, collectionId: number, tokenId: number) {
  const collection = await requireNftCollection(tx, collectionId);
  const token = await requireToken(tx, collectionId, tokenId);
  return { collection, token };
}

export const tokenWriteRoutes = [
  mutation({
    method: 'POST',
    path: '/tokens',
    tag: TAG,
    summary: 'Mint a token from `data` and/or raw `properties` (unique.createItem); parsed {collectionId, tokenId}',
    body: mintBody,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const collection = await requireNftCollection(tx, b.collectionId);
      return chainCall('unique.createItem', { collectionId: b.collectionId, owner: b.owner ?? b.address, properties: mintProperties(b, collection) });
    }
  }),
  mutation({
    method: 'POST',
    path: '/tokens/create-multiple',
    tag: TAG,
    summary: `Mint 1 to ${MAX_TOKENS_PER_CALL} tokens (unique.createMultipleItemsEx); parsed [{collectionId, tokenId}]`,
    body: createMultipleBody,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const collection = await requireNftCollection(tx, b.collectionId);
      const items = b.tokens.map((item, i) => ({ owner: item.owner ?? b.address, properties: mintProperties(item, collection, `tokens[${i}]: `) }));
      return chainCall('unique.createMultipleItemsEx', { collectionId: b.collectionId, items });
    }
  }),
  mutation({
    method: 'POST',
    path: '/tokens/properties',
    tag: TAG,
    summary: 'Set token properties (unique.setTokenProperties); parsed {properties: [{collectionId, tokenId, propertyKey}]}',
    body: tokenBody.extend({ properties }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireNftToken(tx, b.collectionId, b.tokenId);
      return chainCall('unique.setTokenProperties', { collectionId: b.collectionId, tokenId: b.tokenId, properties: b.properties });
    }
  }),
  mutation({
    method: 'DELETE',
    path: '/tokens/properties',
    tag: TAG,
    summary: 'Delete token properties by key (unique.deleteTokenProperties); parsed {properties: [{collectionId, tokenId, propertyKey}]}',
    body: tokenBody.extend({ propertyKeys: propertyKeysBody }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireNftToken(tx, b.collectionId, b.tokenId);
      return chainCall('unique.deleteTokenProperties', { collectionId: b.collectionId, tokenId: b.tokenId, propertyKeys: b.propertyKeys });
    }
  }),
  mutation({
    method: 'PATCH',
    path: '/tokens/transfer',
    tag: TAG,
    summary: 'Transfer a token (unique.transferFrom from `from`, default the signer); parsed {collectionId, tokenId, from, to}',
    body: transferBody,
    signer: (b) => (b.address ?? b.from)!,
    toCall: async (b, { tx }) => {
      await requireNftToken(tx, b.collectionId, b.tokenId);
      const from = (b.from ?? b.address)!;
      return chainCall('unique.transferFrom', { from, to: b.to, collectionId: b.collectionId, tokenId: b.tokenId, value: 1n });
    }
  }),
  mutation({
    method: 'DELETE',
    path: '/tokens',
    tag: TAG,
    summary: 'Burn a token (unique.burnFrom on behalf of `from`, default its current owner); parsed {collectionId, tokenId, address}',
    body: tokenBody.extend({ from: address.optional().describe('The owner to burn on behalf of; the token’s current owner when absent') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const { token } = await requireNftToken(tx, b.collectionId, b.tokenId);
      return chainCall('unique.burnFrom', { collectionId: b.collectionId, from: b.from ?? token.owner, tokenId: b.tokenId, value: 1n });
    }
  }),
  mutation({
    method: 'POST',
    path: '/tokens/nest',
    tag: TAG,
    summary: 'Nest a token under another token (unique.transferFrom to the parent’s nesting address); parsed {collectionId, tokenId}',
    body: z.object({ address, parent: tokenRef, nested: tokenRef, value: amount }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const { collection, token } = await requireNestableToken(tx, b.nested.collectionId, b.nested.tokenId);
      await requireCollection(tx, b.parent.collectionId);
      await requireToken(tx, b.parent.collectionId, b.parent.tokenId);
      // An NFT already nested elsewhere moves out of its current parent (the signer must be its
      // topmost owner); a top-level token, or the signer's pieces of a ReFungible one, move from the signer.
      const from = collection.mode === 'NFT' && parentOf(token) ? token.owner : b.address;
      const to = tokenNestingAddress(b.parent.collectionId, b.parent.tokenId);
      return chainCall('unique.transferFrom', { from, to, collectionId: b.nested.collectionId, tokenId: b.nested.tokenId, value: BigInt(b.value ?? 1) });
    }
  }),
  mutation({
    method: 'POST',
    path: '/tokens/unnest',
    tag: TAG,
    summary: 'Take a nested token out of its parent, to `to` (default the signer) (unique.transferFrom); parsed {collectionId, tokenId}',
    body: z.object({
      address,
      nested: tokenRef,
      to: address.optional().describe('The new owner; the signer when absent'),
      value: amount,
      parent: z.unknown().optional().describe('An NFT\'s parent is looked up (this is ignored); a ReFungible token\'s pieces nested under several tokens need it: {collectionId, tokenId}')
    }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const { collection, token } = await requireNestableToken(tx, b.nested.collectionId, b.nested.tokenId);
      if (collection.mode === 'NFT' && !parentOf(token)) {
        throw validationError('Token is not nested', { collectionId: b.nested.collectionId, tokenId: b.nested.tokenId, owner: token.owner });
      }
      const from = collection.mode === 'NFT' ? token.owner : await piecesParent(tx, b.nested.collectionId, b.nested.tokenId, b.parent);
      return chainCall('unique.transferFrom', {
        from,
        to: b.to ?? b.address,
        collectionId: b.nested.collectionId,
        tokenId: b.nested.tokenId,
        value: BigInt(b.value ?? 1)
      });
    }
  }),
  mutation({
    method: 'POST',
    path: '/tokens/approve',
    tag: TAG,
    summary: 'Approve (isApprove true, default) or revoke a spender for a token (unique.approve); parsed {collectionId, tokenId, spender, isApprove}',
    body: tokenBody.extend({ spender: address, isApprove: z.boolean({ error: 'isApprove must be a boolean' }).optional() }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireNftToken(tx, b.collectionId, b.tokenId);
      return chainCall('unique.approve', { spender: b.spender, collectionId: b.collectionId, tokenId: b.tokenId, amount: b.isApprove === false ? 0n : 1n });
    }
  })
];
