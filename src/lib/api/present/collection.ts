// Collection read model (reference section 9.1).
import { u8aToHex } from '@polkadot/util';
import type { EffectiveLimits } from '../../ledger/access';
import type { CollectionLimits, CollectionRecord, Property } from '../../ledger/types';
import { decodeCollectionSchema } from '../content/index';

const utf8 = new TextEncoder();

export function propertyJson(p: Property) {
  return { key: p.key, value: p.value, valueHex: u8aToHex(utf8.encode(p.value)) };
}

/** Limits as the API shows them: sponsoring disabled (stored 0) reads as null. */
export function limitsJson(limits: CollectionLimits | EffectiveLimits) {
  return { ...limits, sponsoredDataRateLimit: limits.sponsoredDataRateLimit || null };
}

export async function collectionJson(c: CollectionRecord, ipfsGateway: string) {
  const { schema, decodingError } = await decodeCollectionSchema(c.id, c.properties, { ipfsGateway });
  return {
    id: c.id,
    collectionId: c.id,
    owner: c.owner,
    mode: c.mode,
    decimals: c.decimals,
    name: c.name,
    description: c.description,
    tokenPrefix: c.tokenPrefix,
    sponsorship: c.sponsorship ? { address: c.sponsorship.address, isConfirmed: c.sponsorship.isConfirmed } : null,
    limits: limitsJson(c.limits),
    readOnly: c.readOnly,
    permissions: {
      access: c.permissions.access,
      mintMode: c.permissions.mintMode,
      nesting: { ...c.permissions.nesting }
    },
    properties: c.properties.map(propertyJson),
    tokenPropertyPermissions: c.tokenPropertyPermissions,
    admins: c.admins,
    lastTokenId: c.tokensMinted,
    totalSupply: c.tokensMinted - c.tokensBurnt,
    ...(schema ? { schema, knownSchema: 'unique' } : {}),
    ...(decodingError ? { decodingError } : {}),
    flags: { foreign: false, erc721metadata: c.erc721metadata === true }
  };
}
