// Wire shapes of the Unique Network REST API v1 as Opalite answers them (see
// docs/contract-decisions.md and src/lib/api/routes). Only the fields the UI reads are typed;
// everything else passes through untouched.

// These are the wire's own shapes, declared here so the client depends on nothing of the service
// it talks to (it may be a remote one).

/** An amount as the service writes it: raw integer string plus a human form (`FeeResponse`). */
export interface Amount {
  raw: string;
  amount: string;
  formatted: string;
  unit: string;
  decimals: number;
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

/** The polkadot{.js} signer payload a Build answer carries (every field as the wire writes it). */
export interface SignerPayloadJSON {
  address: string;
  blockHash: string;
  blockNumber: string;
  era: string;
  genesisHash: string;
  method: string;
  nonce: string;
  signedExtensions: string[];
  specVersion: string;
  tip: string;
  transactionVersion: string;
  version: number;
}

export type Fee = Amount;

/** `POST <mutation>?use=Build` */
export interface BuildResult {
  signerPayloadJSON: SignerPayloadJSON;
  signerPayloadHex: string;
  signerPayloadRaw?: { address: string; data: string; type?: string };
  fee?: Fee;
}

/** `POST /extrinsic/decode`: what a sign dialog shows. */
export interface DecodedCall {
  section: string;
  method: string;
  args: Record<string, unknown>;
  signer: string;
  nonce: number;
  fee?: Fee;
}

export interface ChainEvent {
  section: string;
  method: string;
  data?: unknown;
  index?: number;
}

export interface ExtrinsicError {
  message: string;
  details?: { section?: string; name?: string } | null;
}

/** `GET /extrinsic/status` (and each item of `/extrinsic/list`). */
export interface ExtrinsicStatus {
  status: string;
  isCompleted: boolean;
  isError: boolean;
  hash: string;
  blockHash?: string | null;
  blockIndex?: number | null;
  block?: { hash: string; header?: { number: number } } | null;
  events?: ChainEvent[];
  error: ExtrinsicError | null;
  parsed?: unknown;
  fee?: Fee | null;
  createdAt?: number;
  callMethod?: { section: string; method: string } | null;
  signer?: string;
  /** Opalite: signed by impersonation in a sandbox, without the signer's key. */
  impersonated?: boolean;
}

/** What a change is about (`src/lib/ledger/changes.ts` of an Opalite service documents each kind's values). */
export type ChangeKind =
  | 'balance'
  | 'nonce'
  | 'collection'
  | 'collectionOwner'
  | 'collectionProperty'
  | 'propertyPermission'
  | 'admin'
  | 'limit'
  | 'permission'
  | 'sponsorship'
  | 'collectionField'
  | 'allowList'
  | 'token'
  | 'tokenOwner'
  | 'tokenProperty'
  | 'approval'
  | 'fungibleSupply'
  | 'fungibleBalance'
  | 'fungibleAllowance'
  | 'pieces'
  | 'totalPieces'
  | 'piecesAllowance'
  | 'state';

/** One change a call makes: amounts are smallest-unit decimal strings, absent values null. */
export interface Change {
  kind: ChangeKind;
  collectionId?: number;
  tokenId?: number;
  address?: string;
  key?: string;
  before: unknown;
  after: unknown;
}

/** `POST /extrinsic/dry-run` (an Opalite extension): what a payload would do in the next block now. */
export interface DryRun {
  ok: boolean;
  error: ExtrinsicError | null;
  fee: Fee;
  /** The signer, or the collection's sponsor. */
  feePayer: string;
  events: ChainEvent[];
  changes: Change[];
  /** What the simulation could not take into account. */
  notes: string[];
}

export interface Balance {
  address: string;
  availableBalance: Amount;
  freeBalance: Amount;
  totalBalance?: Amount;
  lockedBalance?: Amount;
  reservedBalance?: Amount;
}

export interface ChainProperties {
  SS58Prefix: number;
  token: string;
  decimals: number;
  genesisHash?: string;
  /** An Opalite ledger says its exact signed extensions (the real service does not). */
  signedExtensions?: string[];
  specVersion?: number;
  transactionVersion?: number;
  network?: string;
  rules?: string;
  blockMode?: { kind: string; ms?: number };
  /** A fork of a live network names its source and the block it started from. */
  fork?: { source: string; blockHash: string; blockNumber: number | null; sourceGenesisHash: string };
}

export interface Property {
  key: string;
  value: string;
  valueHex?: string;
}

export interface CollectionLimits {
  accountTokenOwnershipLimit?: number | null;
  sponsoredDataSize?: number | null;
  sponsoredDataRateLimit?: number | null;
  tokenLimit?: number | null;
  sponsorTransferTimeout?: number | null;
  sponsorApproveTimeout?: number | null;
  ownerCanTransfer?: boolean | null;
  ownerCanDestroy?: boolean | null;
  transfersEnabled?: boolean | null;
}

export type LimitKey = keyof CollectionLimits;

export interface NestingPermissions {
  tokenOwner?: boolean;
  collectionAdmin?: boolean;
  restricted?: number[] | null;
}

export interface CollectionPermissions {
  access?: 'Normal' | 'AllowList';
  mintMode?: boolean;
  nesting?: NestingPermissions;
}

export type CollectionMode = 'NFT' | 'Fungible' | 'ReFungible';

/** A text in several languages; `_` is the default one. */
export type LocalizedText = { _: string } & Record<string, string>;

/** An image (or other media) as the schema stores it, with its resolved `fullUrl`. */
export interface Media {
  url?: string;
  ipfsCid?: string;
  urlInfix?: string;
  fullUrl?: string | null;
}

export type AttributeType = 'string' | 'number' | 'integer' | 'float' | 'boolean' | 'timestamp' | 'url' | 'isoDate' | 'time' | 'colorRgba';

export interface AttributeSchema {
  name: LocalizedText;
  type: AttributeType;
  optional?: boolean;
  isArray?: boolean;
  enumValues?: Record<string, { _: string | number } & Record<string, unknown>>;
}

export interface CollectionSchema {
  schemaName?: string;
  schemaVersion?: string;
  coverPicture?: Media;
  image?: { urlTemplate?: string };
  attributesSchemaVersion?: string;
  attributesSchema?: Record<string, AttributeSchema>;
  [key: string]: unknown;
}

export interface Collection {
  id: number;
  collectionId: number;
  owner: string;
  mode: CollectionMode;
  decimals?: number;
  name: string;
  description: string;
  tokenPrefix: string;
  sponsorship: { address: string; isConfirmed?: boolean } | null | Record<string, unknown>;
  limits: CollectionLimits;
  readOnly?: boolean;
  permissions: CollectionPermissions;
  properties: Property[];
  tokenPropertyPermissions: PropertyKeyPermission[];
  admins: string[];
  lastTokenId: number;
  totalSupply?: number;
  schema?: CollectionSchema | null;
  knownSchema?: string | null;
}

export interface TokenAttribute {
  name: LocalizedText;
  value: unknown;
  isArray: boolean;
  type: string;
  rawValue?: unknown;
  isEnum?: boolean;
}

export interface TokenRef {
  collectionId: number;
  tokenId: number;
}

export interface Token extends TokenRef {
  owner: string;
  name?: LocalizedText;
  description?: LocalizedText;
  image?: Media;
  attributes?: Record<string, TokenAttribute>;
  decodingError?: string | null;
  properties: Property[];
  nestingParentToken?: TokenRef | null;
  nestingChildTokens?: Token[];
}

/** `GET /tokens/get-bundle`: the whole tree from the topmost token. */
export interface NestedToken extends Token {
  nestingChildTokens: NestedToken[];
}

export interface UploadedFile {
  cid: string;
  fileUrl: string;
}

/** `GET /dev/status` of the built-in ledger. */
export interface DevStatus {
  host: string;
  appVersion?: string;
  dbSchemaVersion?: number;
  blockMode: { kind: string; ms?: number };
  network: string;
  rules: string;
  genesisHash: string;
  head: { number: number; hash: string };
  /** How much state history the ledger keeps (an Opalite ledger with history). */
  history?: HistoryRetention;
  /** Whether `Authorization: Impersonate <address>` signs here (an Opalite sandbox). */
  impersonate?: boolean;
  fork?: ChainProperties['fork'];
}

// ---- Opalite extensions: the explorer, history, snapshots -------------------------------------

/** A block as `GET /explorer/blocks` and `GET /explorer/block` answer it. */
export interface ExplorerBlock {
  number: number;
  hash: string;
  parentHash: string;
  stateRoot: string;
  extrinsicsRoot: string;
  /** Milliseconds since 1970. */
  timestamp: number;
  /** The hashes of its extrinsics, in block order. */
  extrinsics: string[];
}

/** `GET /explorer/block`: a block with the status of each extrinsic (events included). */
export interface ExplorerBlockDetail {
  block: ExplorerBlock;
  extrinsics: ExtrinsicStatus[];
  /** Extrinsics of the block left out of `extrinsics` (it lists at most 100). */
  more: number;
}

/** One change of an account's free balance (`GET /explorer/balance-history`). */
export interface BalanceHistoryEntry {
  blockNumber: number;
  blockHash: string;
  timestamp: number;
  /** The extrinsic that made it; null when the block itself did. */
  extrinsic: { hash: string; section: string; method: string; signer: string } | null;
  /** Smallest unit, decimal strings. */
  before: string;
  after: string;
}

export interface BalanceHistoryPage {
  entries: BalanceHistoryEntry[];
  /** Pass as `before` for the next (older) page; null at the start of history. */
  next: string | null;
}

/** `GET /extrinsic/changes`: what an included extrinsic changed. */
export interface ExtrinsicChanges {
  hash: string;
  blockNumber: number;
  blockHash: string;
  changes: Change[];
}

/** A snapshot to revert to (`POST /dev/snapshot`, `GET /dev/snapshots`). */
export interface LedgerSnapshot {
  snapshotId: string;
  blockNumber: number;
  blockHash: string;
  /** Milliseconds since 1970; absent in the answer of `POST /dev/snapshot`. */
  createdAt?: number;
}

/** State history kept: every block (null) or the last `keepBlocks`; reads and reverts reach back to `start`. */
export interface HistoryRetention {
  keepBlocks: number | null;
  start: number;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A mutation route and its raw arguments, before Build. */
export interface MutationRequest {
  method: Exclude<HttpMethod, 'GET'>;
  path: string;
  body: Record<string, unknown>;
}
