// The calls the codec encodes and the ledger dispatches, and the plain data they carry. The codec
// owns them (it defines the wire); the ledger re-exports them with its records (ledger/types.ts).

/**
 * A cross-account id in its canonical string form: SS58 (the chain's prefix) for a Substrate
 * account, lower-case `0x` + 40 hex for an Ethereum one (token nesting addresses included).
 * Two owners are the same iff their canonical strings are equal (the chain's exact equality).
 */
export type Address = string;

export type CollectionMode = 'NFT' | 'Fungible' | 'ReFungible';
export type CollectionAccess = 'Normal' | 'AllowList';

export interface Property {
  key: string;
  value: string;
}

export interface PropertyPermission {
  mutable: boolean;
  collectionAdmin: boolean;
  tokenOwner: boolean;
}

export interface PropertyKeyPermission {
  key: string;
  permission: PropertyPermission;
}

/** Limits as stored: `null` = not set (the effective default applies). */
export interface CollectionLimits {
  accountTokenOwnershipLimit: number | null;
  sponsoredDataSize: number | null;
  /** Blocks between sponsored property writes; `0` stored means "sponsoring disabled" was set. */
  sponsoredDataRateLimit: number | null;
  tokenLimit: number | null;
  sponsorTransferTimeout: number | null;
  sponsorApproveTimeout: number | null;
  ownerCanTransfer: boolean | null;
  ownerCanDestroy: boolean | null;
  transfersEnabled: boolean | null;
}

/** A limits update: absent or null fields keep the stored value. */
export type CollectionLimitsInput = Partial<CollectionLimits>;

export interface NestingPermissions {
  tokenOwner: boolean;
  collectionAdmin: boolean;
  /** null: any collection may nest; a list (even empty): only these collections. */
  restricted: number[] | null;
}

export interface CollectionPermissionsInput {
  access?: CollectionAccess;
  mintMode?: boolean;
  /** Replaces the stored nesting permissions as a whole (the chain's rule). */
  nesting?: Partial<NestingPermissions>;
}

// ---- calls -------------------------------------------------------------------------------

export interface CreateCollectionData {
  mode: CollectionMode;
  decimals: number;
  access?: CollectionAccess;
  name: string;
  description: string;
  tokenPrefix: string;
  pendingSponsor?: Address;
  limits?: CollectionLimitsInput;
  permissions?: CollectionPermissionsInput;
  tokenPropertyPermissions: PropertyKeyPermission[];
  properties: Property[];
  adminList: Address[];
  /** The chain's `external` collection flag (a user may not set it). */
  readOnly?: boolean;
  /** The chain's `erc721metadata` collection flag (set by the v2 route, as the schemas library's encodeCollection does). */
  erc721metadata?: boolean;
}

export interface MintItem {
  owner: Address;
  properties: Property[];
  /** Fungible value or ReFungible pieces of this item; absent for an NFT. */
  amount?: bigint;
}

/** The item data variant of a mint call (the chain's CreateItemData): NFT when absent. */
export type ItemKind = 'Fungible' | 'ReFungible';

/**
 * The item data variant of createMultipleItemsEx: an ItemKind, or one ReFungible token whose pieces
 * the items share out per owner (the chain's RefungibleMultipleOwners).
 */
export type ExItemKind = ItemKind | 'RefungibleMultipleOwners';

/** One CreateItemData: NFT properties (no `kind`), a Fungible value or ReFungible pieces and properties. */
export interface ItemData {
  properties: Property[];
  kind?: ItemKind;
  amount?: bigint;
}

/** Every call the ledger dispatches, keyed `section.method`, with its arguments. */
export interface CallArgs {
  'unique.createCollectionEx': { data: CreateCollectionData };
  'unique.destroyCollection': { collectionId: number };
  'unique.setCollectionProperties': { collectionId: number; properties: Property[] };
  'unique.deleteCollectionProperties': { collectionId: number; propertyKeys: string[] };
  'unique.setCollectionLimits': { collectionId: number; limits: CollectionLimitsInput };
  'unique.setCollectionPermissions': { collectionId: number; permissions: CollectionPermissionsInput };
  'unique.setTokenPropertyPermissions': { collectionId: number; propertyPermissions: PropertyKeyPermission[] };
  'unique.setTransfersEnabledFlag': { collectionId: number; value: boolean };
  'unique.changeCollectionOwner': { collectionId: number; newOwner: Address };
  'unique.addCollectionAdmin': { collectionId: number; newAdmin: Address };
  'unique.removeCollectionAdmin': { collectionId: number; account: Address };
  'unique.setCollectionSponsor': { collectionId: number; newSponsor: Address };
  'unique.confirmSponsorship': { collectionId: number };
  'unique.removeCollectionSponsor': { collectionId: number };
  'unique.addToAllowList': { collectionId: number; address: Address };
  'unique.removeFromAllowList': { collectionId: number; address: Address };
  /** `kind` absent: NFT data; Fungible: `amount` is the value (no properties); ReFungible: `amount` pieces. */
  'unique.createItem': { collectionId: number; owner: Address; properties: Property[]; kind?: ItemKind; amount?: bigint };
  /** Several items for one owner (an FT collection adds them up; each NFT or RFT item is a token). */
  'unique.createMultipleItems': { collectionId: number; owner: Address; items: ItemData[] };
  /**
   * `kind` absent: NFT items; Fungible: one item per owner; ReFungible: one token per item
   * (RefungibleMultipleItems); RefungibleMultipleOwners: one token, `items` its holders and their
   * pieces (no properties), `properties` the token's (only with this kind).
   */
  'unique.createMultipleItemsEx': { collectionId: number; items: MintItem[]; kind?: ExItemKind; properties?: Property[] };
  'unique.setTokenProperties': { collectionId: number; tokenId: number; properties: Property[] };
  'unique.deleteTokenProperties': { collectionId: number; tokenId: number; propertyKeys: string[] };
  'unique.transfer': { to: Address; collectionId: number; tokenId: number; value: bigint };
  'unique.transferFrom': { from: Address; to: Address; collectionId: number; tokenId: number; value: bigint };
  'unique.approve': { spender: Address; collectionId: number; tokenId: number; amount: bigint };
  'unique.burnItem': { collectionId: number; tokenId: number; value: bigint };
  'unique.burnFrom': { collectionId: number; from: Address; tokenId: number; value: bigint };
  'unique.repartition': { collectionId: number; tokenId: number; amount: bigint };
  /** Make `operator` able (or no longer able) to transfer and burn every NFT or RFT token of the signer in the collection. */
  'unique.setAllowanceForAll': { collectionId: number; operator: Address; approve: boolean };
  'balances.transferKeepAlive': { dest: Address; value: bigint };
  /** pallet_utility: dispatch in order, stop at the first failure (earlier calls stay). */
  'utility.batch': { calls: Call[] };
  /** pallet_utility: all or nothing. */
  'utility.batchAll': { calls: Call[] };
}

export type CallName = keyof CallArgs;

export type Call = { [N in CallName]: { name: N; args: CallArgs[N] } }[CallName];

export type CallOf<N extends CallName> = { name: N; args: CallArgs[N] };
