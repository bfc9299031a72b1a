// A designed source collection for the publish tests: a cover, token images, a bundle of three.
import type { SourceCollection } from '../source';

export const ME = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CID_A = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
export const CID_B = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

export function sourceOf(overrides: Partial<SourceCollection> = {}): SourceCollection {
  return {
    collectionId: 7,
    name: 'Birds',
    description: 'Sea birds',
    tokenPrefix: 'BRD',
    mode: 'NFT',
    owner: ME,
    limits: {},
    permissions: { nesting: { tokenOwner: true } },
    properties: [
      { key: 'schemaName', value: 'unique' },
      { key: 'coverPicture.ipfsCid', value: CID_A }
    ],
    tokenPropertyPermissions: [{ key: 'i.c', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } }],
    admins: [],
    sponsor: null,
    tokens: [
      { tokenId: 1, owner: BOB, properties: [{ key: 'i.c', value: `http://sandbox.test/ipfs/${CID_B}` }], parent: null },
      { tokenId: 2, owner: ME, properties: [{ key: 'i.c', value: CID_A }], parent: 1 },
      { tokenId: 4, owner: BOB, properties: [], parent: null },
      { tokenId: 5, owner: ME, properties: [], parent: 2 }
    ],
    ...overrides
  };
}

