// Tokens in Unique schema 2.0.0 (the 0.7.7 client's token.createV2 / createMultipleV2 / getV2):
// the same chain calls as mint, with properties encoded by content/encode-v2 (the collection's
// property permissions decide at dispatch, as on the chain); the read decodes a v2 token as stored
// and converts a v1 one.
import { z } from 'zod';
import { parseNestingAddress } from '../../codec/nesting';
import type { CollectionRecord, TokenRecord } from '../../ledger/types';
import { decodeTokenV2 } from '../content/decode-v2';
import { encodeTokenV2 } from '../content/encode-v2';
import { tokenV2Fields, type TokenV2 } from '../content/schema-v2';
import { MAX_TOKENS_PER_CALL, MAX_URL_FIELD_LENGTH } from '../../limits';
import { propertyJson } from '../present/collection';
import { mutation, read } from '../route';
import { address, boundedString, collectionId, properties } from '../schemas';
import { chainCall, collectionNotFound, content, requireNftCollection, tokenNotFound, tokenQuery } from './lookups';

const TAG = 'tokens';

const tokenItemV2 = z.object({
  owner: address.optional().describe('The new token owner; the signer when absent'),
  ...tokenV2Fields,
  encodeOptions: z
    .object({ URI: boundedString('URI', MAX_URL_FIELD_LENGTH).optional(), overwriteProperties: properties.optional() })
    .optional()
});
type TokenItemV2 = z.output<typeof tokenItemV2>;

const createTokenV2Body = tokenItemV2.extend({ address, collectionId });

const createMultipleV2Body = z.object({
  address,
  collectionId,
  tokens: z
    .array(tokenItemV2, { error: 'tokens must be an array of schema-2 tokens' })
    .min(1, { error: 'tokens must not be empty' })
    .max(MAX_TOKENS_PER_CALL, { error: `tokens must have at most ${MAX_TOKENS_PER_CALL} items` })
});

/** The token properties of one item: its schema-2 fields only, in the schema's order. */
function itemProperties(item: TokenItemV2, where = '') {
  const token: Record<string, unknown> = {};
  for (const key of Object.keys(tokenV2Fields)) if (item[key as keyof TokenItemV2] !== undefined) token[key] = item[key as keyof TokenItemV2];
  return content(() => encodeTokenV2(token as TokenV2, item.encodeOptions), where);
}

/** TokenWithInfoV2Dto: the decoded token fields, then the record's. */
export async function tokenV2Json(token: TokenRecord, collection: CollectionRecord, ipfsGateway: string) {
  const { value, parsingError } = await decodeTokenV2(token.properties, collection.properties, { ipfsGateway });
  return {
    ...value,
    collectionId: token.collectionId,
    tokenId: token.tokenId,
    owner: token.owner,
    parsingError,
    properties: token.properties.map(propertyJson),
    nestingParentToken: parseNestingAddress(token.owner)
  };
}

export const tokenV2Routes = [
  mutation({
    method: 'POST',
    path: '/tokens/v2',
    tag: TAG,
    summary: 'Mint a token in Unique schema 2.0.0 (unique.createItem): schemaName, schemaVersion, tokenData, royalties; parsed {collectionId, tokenId}',
    body: createTokenV2Body,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireNftCollection(tx, b.collectionId);
      return chainCall('unique.createItem', { collectionId: b.collectionId, owner: b.owner ?? b.address, properties: itemProperties(b) });
    }
  }),
  mutation({
    method: 'POST',
    path: '/tokens/create-multiple-v2',
    tag: TAG,
    summary: `Mint 1 to ${MAX_TOKENS_PER_CALL} tokens in Unique schema 2.0.0 (unique.createMultipleItemsEx); parsed [{collectionId, tokenId}]`,
    body: createMultipleV2Body,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireNftCollection(tx, b.collectionId);
      const items = b.tokens.map((item, i) => ({ owner: item.owner ?? b.address, properties: itemProperties(item, `tokens[${i}]: `) }));
      return chainCall('unique.createMultipleItemsEx', { collectionId: b.collectionId, items });
    }
  }),
  read({
    path: '/tokens/v2',
    tag: TAG,
    summary: 'Get a token in Unique schema 2.0.0 (a v1 token converted): its fields, owner, parsingError, properties, nestingParentToken',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger, ipfsGateway }) => {
      const { token, collection } = await ledger.read(async (tx) => {
        const [token, collection] = await Promise.all([tx.get('tokens', [collectionId, tokenId]), tx.get('collections', collectionId)]);
        // DECISIONS 2: a read of an unknown collection answers CollectionNotFoundError, as the v1 reads do.
        if (!collection) throw collectionNotFound();
        if (!token) throw tokenNotFound();
        return { token, collection };
      });
      return tokenV2Json(token, collection, ipfsGateway);
    }
  })
];
