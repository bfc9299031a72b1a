// Collections in Unique schema 2.0.0 (the 0.7.7 client's collection.createV2 / getV2): the same
// chain call as create collection, with the info encoded by content/encode-v2; the read is the
// collection with its info decoded by content/decode-v2 (a v1 collection's converted).
import { z } from 'zod';
import { MAX_COLLECTION_DESCRIPTION_LENGTH, MAX_COLLECTION_NAME_LENGTH } from '../../ledger/constants';
import type { CollectionRecord } from '../../ledger/types';
import { collectionInfoV2Fields, type CollectionInfoV2 } from '../content/schema-v2';
import { encodeCollectionV2 } from '../content/encode-v2';
import { decodeCollectionV2, royaltiesV2 } from '../content/decode-v2';
import { messageOf } from '../content/errors';
import { collectionJson } from '../present/collection';
import { mutation, read, type BuildContext } from '../route';
import { address, boundedString, limits, utf16Bounded, mode, permissions, properties, propertyKeyPermissions, propertyPermission } from '../schemas';
import { checkPrefix, createCollectionChainCall } from './collections-write';
import { collectionQuery, content } from './lookups';

const TAG = 'collections';

const createCollectionV2Body = z
  .object({
    address,
    name: utf16Bounded('name', MAX_COLLECTION_NAME_LENGTH),
    description: utf16Bounded('description', MAX_COLLECTION_DESCRIPTION_LENGTH),
    tokenPrefix: boundedString('tokenPrefix').optional().describe('The token prefix; `symbol` when absent'),
    symbol: boundedString('symbol').optional().describe('The token prefix when `tokenPrefix` is absent'),
    mode: mode.optional(),
    sponsorship: z.object({ address }).nullish(),
    limits: limits.nullish(),
    permissions: permissions.nullish(),
    metaUpdatePermission: z.enum(['ItemOwner', 'Admin', 'None']).optional().describe('Accepted and ignored (the chain no longer stores it)'),
    readOnly: z.boolean().optional(),
    ...collectionInfoV2Fields,
    encodeOptions: z
      .object({
        defaultPermission: propertyPermission.optional(),
        overwriteProperties: properties.optional(),
        overwriteTPPs: propertyKeyPermissions('overwriteTPPs').optional()
      })
      .optional()
  })
  .refine((b) => b.tokenPrefix !== undefined || b.symbol !== undefined, { error: 'symbol (or tokenPrefix) is required', path: ['symbol'] });

type CreateV2 = z.output<typeof createCollectionV2Body>;

/** The schema-2 info of a body: its info fields only, in the schema's order. */
function infoOf(body: CreateV2): CollectionInfoV2 {
  const info: Record<string, unknown> = {};
  for (const key of Object.keys(collectionInfoV2Fields)) if (body[key as keyof CreateV2] !== undefined) info[key] = body[key as keyof CreateV2];
  return info as CollectionInfoV2;
}

function createCollectionV2Call(b: CreateV2, ctx: BuildContext) {
  const tokenPrefix = (b.tokenPrefix ?? b.symbol)!;
  checkPrefix(tokenPrefix, ctx);
  const encoded = content(() => encodeCollectionV2(infoOf(b), b.encodeOptions));
  return createCollectionChainCall(b, {
    mode: b.mode ?? 'NFT',
    decimals: 0,
    tokenPrefix,
    tokenPropertyPermissions: encoded.tokenPropertyPermissions,
    properties: encoded.properties,
    adminList: [],
    // As @unique-nft/schemas 2.x encodeCollection does: a v2 collection supports ERC721Metadata.
    erc721metadata: true
  });
}

/** Fields of the v1 read that CollectionWithInfoV2Dto does not have (it names the id `collectionId`). */
const V1_ONLY_FIELDS = ['id', 'schema', 'knownSchema', 'decodingError', 'admins', 'lastTokenId', 'totalSupply'];

/** CollectionWithInfoV2Dto: the collection fields, `collectionId`, the decoded info and royalties. */
export async function collectionV2Json(collection: CollectionRecord, ipfsGateway: string) {
  const base: Record<string, unknown> = await collectionJson(collection, ipfsGateway);
  for (const key of V1_ONLY_FIELDS) delete base[key];
  const { value: info, parsingError } = await decodeCollectionV2(collection.properties, { ipfsGateway });
  let royalties: unknown[] = [];
  let royaltiesParsingError: string | null = null;
  try {
    royalties = royaltiesV2(collection.properties);
  } catch (error) {
    royaltiesParsingError = messageOf(error);
  }
  return { ...base, info, parsingError, royalties, royaltiesParsingError };
}

export const collectionV2Routes = [
  mutation({
    method: 'POST',
    path: '/collections/v2',
    tag: TAG,
    summary: 'Create a collection in Unique schema 2.0.0 (unique.createCollectionEx): info in `collectionInfo`, token permissions for v2 tokens; parsed {collectionId}',
    body: createCollectionV2Body,
    signer: (b) => b.address,
    toCall: async (b, ctx) => createCollectionV2Call(b, ctx)
  }),
  read({
    path: '/collections/v2',
    tag: TAG,
    summary: 'Get a collection with its Unique schema 2.0.0 info (a v1 schema converted); null (200) when it does not exist',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger, ipfsGateway }) => {
      const collection = await ledger.read((tx) => tx.get('collections', collectionId));
      return collection ? collectionV2Json(collection, ipfsGateway) : null;
    }
  })
];
