// The source collection as one value, read over REST: its settings, properties and permissions,
// admins, sponsor, and every token with its properties, owner and parent (bundles).
import type { RestClient } from '../client';
import type { Collection, CollectionLimits, Property, PropertyKeyPermission } from '../types';

/** Tokens one publish copies: a run a person can follow (and a plan that fits on a page). */
export const MAX_PUBLISH_TOKENS = 1000;

export interface SourceToken {
  tokenId: number;
  owner: string;
  properties: Property[];
  /** The token it is nested in (same collection), or null. */
  parent: number | null;
}

export interface SourceCollection {
  collectionId: number;
  name: string;
  description: string;
  tokenPrefix: string;
  mode: Collection['mode'];
  owner: string;
  limits: Partial<CollectionLimits>;
  permissions: Collection['permissions'];
  properties: Property[];
  tokenPropertyPermissions: PropertyKeyPermission[];
  admins: string[];
  /** The source's sponsor: not copied (a sponsor confirms on the target itself). */
  sponsor: string | null;
  tokens: SourceToken[];
}

/** The subset of the REST client the reader uses (a fake in tests). */
export type SourceReader = Pick<RestClient, 'collection' | 'collectionAdmins' | 'tokenIds' | 'token'>;

function sponsorOf(collection: Collection): string | null {
  const s = collection.sponsorship as { address?: unknown } | null;
  return s && typeof s.address === 'string' ? s.address : null;
}

/** Limits as createCollectionEx takes them: only those set. */
function setLimits(limits: CollectionLimits | undefined): Partial<CollectionLimits> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(limits ?? {})) if (value !== null && value !== undefined) out[key] = value;
  return out as Partial<CollectionLimits>;
}

export async function readSource(client: SourceReader, collectionId: number): Promise<SourceCollection> {
  const collection = await client.collection(collectionId);
  if (!collection) throw new Error(`There is no collection ${collectionId} on this network`);
  if (collection.mode !== 'NFT') throw new Error(`Collection ${collectionId} is ${collection.mode}: publishing copies NFT collections only`);
  const [admins, ids] = await Promise.all([client.collectionAdmins(collectionId), client.tokenIds(collectionId)]);
  if (ids.length > MAX_PUBLISH_TOKENS) throw new Error(`Collection ${collectionId} has ${ids.length} tokens; one publish copies up to ${MAX_PUBLISH_TOKENS}`);
  const tokens: SourceToken[] = [];
  for (const tokenId of [...ids].sort((a, b) => a - b)) {
    const token = await client.token(collectionId, tokenId);
    const parent = token.nestingParentToken;
    if (parent && parent.collectionId !== collectionId) throw new Error(`Token ${tokenId} is nested in a token of collection ${parent.collectionId}: only bundles inside the collection can be published`);
    tokens.push({ tokenId, owner: token.owner, properties: token.properties ?? [], parent: parent ? parent.tokenId : null });
  }
  return {
    collectionId,
    name: collection.name,
    description: collection.description,
    tokenPrefix: collection.tokenPrefix,
    mode: collection.mode,
    owner: collection.owner,
    limits: setLimits(collection.limits),
    permissions: collection.permissions,
    properties: collection.properties ?? [],
    tokenPropertyPermissions: collection.tokenPropertyPermissions ?? [],
    admins,
    sponsor: sponsorOf(collection),
    tokens
  };
}
