// The ledger's records, and the calls it dispatches (defined by the codec, which encodes them, and
// re-exported here). Plain data: no DOM, no IndexedDB, no Svelte.
import type {
  Address,
  CollectionMode,
  CollectionAccess,
  Property,
  PropertyKeyPermission,
  CollectionLimits,
  NestingPermissions,
  Call
} from '../codec/call-types';

export type {
  Address,
  CollectionMode,
  CollectionAccess,
  Property,
  PropertyPermission,
  PropertyKeyPermission,
  CollectionLimits,
  CollectionLimitsInput,
  NestingPermissions,
  CollectionPermissionsInput,
  CreateCollectionData,
  MintItem,
  ItemKind,
  ItemData,
  CallArgs,
  CallName,
  Call,
  CallOf
} from '../codec/call-types';

export interface CollectionPermissions {
  access: CollectionAccess;
  mintMode: boolean;
  nesting: NestingPermissions;
}

export interface Sponsorship {
  address: Address;
  isConfirmed: boolean;
}

export interface CollectionRecord {
  id: number;
  owner: Address;
  mode: CollectionMode;
  decimals: number;
  name: string;
  description: string;
  tokenPrefix: string;
  sponsorship: Sponsorship | null;
  limits: CollectionLimits;
  permissions: CollectionPermissions;
  readOnly: boolean;
  /** The chain's `erc721metadata` flag; absent (false) in records written before it was kept. */
  erc721metadata?: boolean;
  /** Sorted by key bytes, as the chain's BTreeMap returns them. */
  properties: Property[];
  /** Sorted by key bytes. */
  tokenPropertyPermissions: PropertyKeyPermission[];
  /** Insertion order; at most 5. */
  admins: Address[];
  /** Last token id handed out (burned tokens still count). */
  tokensMinted: number;
  tokensBurnt: number;
}

export interface TokenRecord {
  collectionId: number;
  tokenId: number;
  /** Direct owner: an account, or the nesting address of the parent token. */
  owner: Address;
  /** Sorted by key bytes. */
  properties: Property[];
  /** The single approved spender, if any. */
  approved?: Address;
  /** Set iff the owner is a token nesting address: the parent token, for the children index. */
  parentCollectionId?: number;
  parentTokenId?: number;
}

export interface TokenRef {
  collectionId: number;
  tokenId: number;
}

export interface AccountRecord {
  address: Address;
  /** Free balance in the smallest unit (18 decimals). */
  free: bigint;
  /** Next expected extrinsic nonce. */
  nonce: number;
}

export interface AllowListRecord {
  collectionId: number;
  address: Address;
}

export interface LedgerEvent {
  section: string;
  method: string;
  /** Named fields of the event (later-era `toJSON()` shape with names). */
  data: Record<string, unknown>;
  /** Position in the block's event list. */
  index?: number;
}

export interface DispatchErrorInfo {
  section: string;
  name: string;
  message: string;
}

export type ExtrinsicStatusName = 'pending' | 'Ready' | 'InBlock' | 'Error' | 'Invalid';

export interface ExtrinsicRecord {
  hash: string;
  signer: Address;
  nonce: number;
  callMethod: { section: string; method: string };
  /** The decoded call, for the extrinsics log. */
  call: Call;
  status: ExtrinsicStatusName;
  isCompleted: boolean;
  isError: boolean;
  blockNumber: number | null;
  blockHash: string | null;
  blockIndex: number | null;
  events: LedgerEvent[];
  error: DispatchErrorInfo | null;
  /** Fee actually charged, smallest unit, as a decimal string. */
  fee: string;
  /** Who paid it (the signer, or a confirmed collection sponsor). */
  feePayer: Address;
  createdAt: number;
  callbackUrl?: string;
  /** Signed by impersonation (a sandbox's dev tool), without the signer's key. */
  impersonated?: true;
}

/**
 * A signed extrinsic that passed its checks and waits for a block. Kept in the store, so a hash
 * answered at submit keeps a status across restarts; removed in the block that includes it.
 */
export interface PoolRecord {
  hash: string;
  signer: Address;
  nonce: number;
  call: Call;
  fee: bigint;
  /** Last block number at which the era still allows inclusion. */
  validUntil: number;
  createdAt: number;
  callbackUrl?: string;
  /** Whose balance admission counted the fee against: a collection sponsor's; the signer's when absent. */
  reservedBy?: Address;
  /** Signed by impersonation, without the signer's key. */
  impersonated?: true;
}

export interface BlockRecord {
  number: number;
  hash: string;
  parentHash: string;
  stateRoot: string;
  extrinsicsRoot: string;
  timestamp: number;
  extrinsics: string[];
}
