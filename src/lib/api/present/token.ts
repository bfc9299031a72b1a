// Token read model (reference section 9.2) and the NestedToken tree (9.3).
import { parseNestingAddress } from '../../codec/nesting';
import type { CollectionRecord, TokenRecord } from '../../ledger/types';
import { decodeTokenData } from '../content/index';
import { propertyJson } from './collection';

export async function tokenJson(token: TokenRecord, collection: CollectionRecord, ipfsGateway: string) {
  const decoded = await decodeTokenData(token.properties, collection.properties, { ipfsGateway });
  const parent = parseNestingAddress(token.owner);
  return {
    collectionId: token.collectionId,
    tokenId: token.tokenId,
    owner: token.owner,
    ...decoded,
    ...(parent ? { nestingParentToken: parent } : {}),
    properties: token.properties.map(propertyJson)
  };
}
