// The chain's types the codec tests give @polkadot/types (a TypeRegistry), as the chain's metadata
// names them: one list, so two cross-checks cannot drift apart.
import type { RegistryTypes } from '@polkadot/types/types';

export const CHAIN_COLLECTION_TYPES: RegistryTypes = {
  CrossAccountId: { _enum: { Substrate: 'AccountId32', Ethereum: 'H160' } },
  CollectionMode: { _enum: { NFT: 'Null', Fungible: 'u8', ReFungible: 'Null' } },
  AccessMode: { _enum: ['Normal', 'AllowList'] },
  SponsoringRateLimit: { _enum: { SponsoringDisabled: 'Null', Blocks: 'u32' } },
  CollectionLimits: {
    accountTokenOwnershipLimit: 'Option<u32>',
    sponsoredDataSize: 'Option<u32>',
    sponsoredDataRateLimit: 'Option<SponsoringRateLimit>',
    tokenLimit: 'Option<u32>',
    sponsorTransferTimeout: 'Option<u32>',
    sponsorApproveTimeout: 'Option<u32>',
    ownerCanTransfer: 'Option<bool>',
    ownerCanDestroy: 'Option<bool>',
    transfersEnabled: 'Option<bool>'
  },
  NestingPermissions: { tokenOwner: 'bool', collectionAdmin: 'bool', restricted: 'Option<BTreeSet<u32>>' },
  CollectionPermissions: { access: 'Option<AccessMode>', mintMode: 'Option<bool>', nesting: 'Option<NestingPermissions>' },
  UniqueProperty: { key: 'Bytes', value: 'Bytes' }
};
