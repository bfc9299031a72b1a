// SCALE encoding of the ledger's calls, byte-compatible with the Unique chain where it can be.
//
// method = pallet index (u8) ‖ call index (u8) ‖ arguments in declaration order.
//
// Pallet `balances` = 10:
//    3 transferKeepAlive(dest: MultiAddress, value: Compact<u128>)
// Pallet `unique` = 61, each call at the index the real pallet gives it (`#[pallet::call_index]`
// in pallets/unique/src/lib.rs); 0 createCollection and 24 approveFrom are not modelled:
//    1 createCollectionEx(data)                  15 setTokenProperties(id, tokenId, properties)
//    2 destroyCollection(id)                     16 deleteTokenProperties(id, tokenId, keys)
//    3 addToAllowList(id, address)               17 setTokenPropertyPermissions(id, permissions)
//    4 removeFromAllowList(id, address)          18 createMultipleItemsEx(id, data)
//    5 changeCollectionOwner(id, newOwner)       19 setTransfersEnabledFlag(id, value)
//    6 addCollectionAdmin(id, newAdmin)          20 burnItem(id, tokenId, value)
//    7 removeCollectionAdmin(id, account)        21 burnFrom(id, from, tokenId, value)
//    8 setCollectionSponsor(id, newSponsor)      22 transfer(to, id, tokenId, value)
//    9 confirmSponsorship(id)                    23 approve(spender, id, tokenId, amount)
//   10 removeCollectionSponsor(id)               25 transferFrom(from, to, id, tokenId, value)
//   11 createItem(id, owner, data)               26 setCollectionLimits(id, limits)
//   12 createMultipleItems(id, owner, Vec<data>) 27 setCollectionPermissions(id, permissions)
//   13 setCollectionProperties(id, properties)   28 repartition(id, tokenId, amount)
//   14 deleteCollectionProperties(id, keys)      29 setAllowanceForAll(id, operator, approve)
//
// Types as on the chain: ids u32; amounts u128; accounts CrossAccountId {Substrate([u8;32]),
// Ethereum([u8;20])} (newOwner and newSponsor too, which are plain AccountIds on the chain: their
// bytes are CrossAccountId's, and an Ethereum account is refused there); name/description Vec<u16>; prefix, property keys
// and values Vec<u8> (UTF-8); createItem data CreateItemData (NFT, Fungible, ReFungible);
// createMultipleItemsEx data CreateItemExData (NFT, Fungible, RefungibleMultipleItems,
// RefungibleMultipleOwners); limits and permissions the chain's structs of Options;
// CreateCollectionData in the chain's field order, its flags byte `CollectionFlags` read as
// `readOnly` (external, 0x01) and `erc721metadata` (0x40).
import {
  InvalidAddressError,
  addressFromPublicKey,
  isEthereumAddress,
  publicKeyOf
} from './address';
import { fromHex, toHex } from './hash';
import { quote } from '../limits';
import {
  ScaleError,
  Struct,
  bool,
  compactBig,
  concatBytes,
  createCodecOf,
  decodeExact,
  fixedBytes,
  fromChainJson,
  isRecord,
  fromJson,
  option,
  readAmount,
  readChainEnum,
  readVariant,
  u128,
  u32,
  u8,
  unitEnum,
  utf16,
  utf8,
  vec,
  structFields,
  withChainDefault,
  withChainJsonReader,
  withJsonReader,
  withoutUndefined,
  type Codec,
  type JsonReader
} from './scale';
import type {
  Address,
  Call,
  ItemData,
  MintItem,
  CallArgs,
  CallName,
  CollectionLimitsInput,
  CollectionMode,
  CollectionPermissionsInput,
  CreateCollectionData,
  NestingPermissions
} from './call-types';

/** pallet_balances' index in the Unique runtime (runtime/common/construct_runtime.rs), as in the REST reference's example `0x1e…`. */
export const BALANCES_PALLET = 30;
export const UNIQUE_PALLET = 61;
/** pallet_utility's index in the Unique runtime (runtime/common/construct_runtime.rs). */
export const UTILITY_PALLET = 156;

/** Bytes that are not a call this ledger knows. */
export class CallDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallDecodeError';
  }
}

/** A call whose arguments cannot be represented on the wire (out of range, bad address...). */
export class CallEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallEncodeError';
  }
}

// ---- argument types -------------------------------------------------------------------------

const publicKeyBytes = fixedBytes(32);
const ethereumBytes = fixedBytes(20);

/** `CrossAccountId`: {Substrate: [u8;32]} or {Ethereum: [u8;20]}, as the canonical Address. */
const crossAccountId: Codec<Address> = createCodecOf(
  (address: Address) => {
    if (isEthereumAddress(address)) return concatBytes([new Uint8Array([1]), fromHex(address.toLowerCase())]);
    return concatBytes([new Uint8Array([0]), publicKeyOf(address)]);
  },
  (input) =>
    readVariant(input, 2, 'CrossAccountId') === 0
      ? addressFromPublicKey(publicKeyBytes.dec(input))
      : toHex(ethereumBytes.dec(input))
);

/**
 * `newOwner` and `newSponsor`: plain AccountIds on the chain, so never an Ethereum account. The
 * bytes stay CrossAccountId's (see the header); an Ethereum one is refused both ways.
 */
const substrateAccountId: Codec<Address> = createCodecOf(
  (address: Address) => {
    if (isEthereumAddress(address)) throw new ScaleError(`must be a Substrate account (the chain's AccountId), not the Ethereum address ${address}`);
    return crossAccountId.enc(address);
  },
  (input) => {
    const address = crossAccountId.dec(input);
    if (isEthereumAddress(address)) throw new ScaleError(`an Ethereum account where the chain takes an AccountId`);
    return address;
  }
);

/** A Substrate account as polkadot.js takes an AccountId32: an SS58 address or 0x + 64 hex of its public key. */
function chainSubstrateAccount(value: unknown, path: string): unknown {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)) return addressFromPublicKey(fromHex(value));
  if (isEthereumAddress(value)) throw new ScaleError(`${path} must be a Substrate account, not the Ethereum address ${value}`);
  return value;
}

/** An Ethereum account (H160) in the ledger's lower-case form. */
function chainEthereumAccount(value: unknown, path: string): string {
  if (!isEthereumAddress(value)) throw new ScaleError(`${path} must be 0x + 40 hex digits, not ${quote(JSON.stringify(value) ?? String(value))}`);
  return value.toLowerCase();
}

// polkadot.js form of an AccountId: an SS58 address or 0x + 64 hex.
withChainJsonReader(substrateAccountId, chainSubstrateAccount);

// polkadot.js form: {Substrate: account} / {Ethereum: h160}; a bare address is read as the named form reads it.
withChainJsonReader(crossAccountId, (value, path) => {
  if (typeof value === 'string') return value;
  const [variant, inner] = readChainEnum(value, ['Substrate', 'Ethereum'] as const, path, 'CrossAccountId');
  return variant === 'Substrate' ? chainSubstrateAccount(inner, `${path}.${variant}`) : chainEthereumAccount(inner, `${path}.${variant}`);
});

/** `MultiAddress` of pallet balances: Id([u8;32]) or Address20([u8;20]). */
const multiAddress: Codec<Address> = createCodecOf(
  (address: Address) => {
    if (isEthereumAddress(address)) return concatBytes([new Uint8Array([4]), fromHex(address.toLowerCase())]);
    return concatBytes([new Uint8Array([0]), publicKeyOf(address)]);
  },
  (input) => {
    const index = readVariant(input, 5, 'MultiAddress');
    if (index === 0) return addressFromPublicKey(publicKeyBytes.dec(input));
    if (index === 4) return toHex(ethereumBytes.dec(input));
    throw new ScaleError(`MultiAddress variant ${index} is not supported (only Id and Address20)`);
  }
);

// polkadot.js form: {Id: account} / {Address20: h160} (the other variants are refused by the encoder's rule).
withChainJsonReader(multiAddress, (value, path) => {
  if (typeof value === 'string') return value;
  const [variant, inner] = readChainEnum(value, ['Id', 'Address20'] as const, path, 'MultiAddress (Id or Address20)');
  return variant === 'Id' ? chainSubstrateAccount(inner, `${path}.${variant}`) : chainEthereumAccount(inner, `${path}.${variant}`);
});

const property = Struct({ key: utf8, value: utf8 });
const properties = vec(property);

const propertyKeyPermission = Struct({
  key: utf8,
  permission: Struct({ mutable: bool, collectionAdmin: bool, tokenOwner: bool })
});

/** `CollectionMode`: NFT, Fungible(decimals: u8), ReFungible. */
const collectionMode: Codec<{ mode: CollectionMode; decimals: number }> = createCodecOf(
  ({ mode, decimals }: { mode: CollectionMode; decimals: number }) => {
    if (mode === 'Fungible') return concatBytes([new Uint8Array([1]), u8.enc(decimals)]);
    if (mode !== 'NFT' && mode !== 'ReFungible') throw new ScaleError(`unknown collection mode ${String(mode)}`);
    // Only Fungible carries decimals on the chain; anything else would not survive a round trip.
    if (decimals !== 0) throw new ScaleError(`decimals must be 0 for mode ${mode}, got ${String(decimals)}`);
    return new Uint8Array([mode === 'NFT' ? 0 : 2]);
  },
  (input) => {
    const index = readVariant(input, 3, 'CollectionMode');
    if (index === 1) return { mode: 'Fungible', decimals: u8.dec(input) };
    return { mode: index === 0 ? 'NFT' : 'ReFungible', decimals: 0 };
  }
);

// polkadot.js form: 'NFT' / {Fungible: decimals} / 'ReFungible'; absent is NFT, the enum's first variant.
withChainDefault(collectionMode, () => ({ mode: 'NFT', decimals: 0 }));
withChainJsonReader(collectionMode, (value, path) => {
  const [mode, decimals] = readChainEnum(value, ['NFT', 'Fungible', 'ReFungible'] as const, path, 'CollectionMode');
  return { mode, decimals: mode === 'Fungible' ? fromChainJson(u8, decimals, `${path}.Fungible`) : 0 };
});

const accessMode = unitEnum(['Normal', 'AllowList'] as const, 'AccessMode');

/** `SponsoringRateLimit`: SponsoringDisabled (stored as 0 by the ledger) or Blocks(u32). */
const sponsoringRateLimit: Codec<number> = createCodecOf(
  (blocks: number) => (blocks === 0 ? new Uint8Array([0]) : concatBytes([new Uint8Array([1]), u32.enc(blocks)])),
  (input) => (readVariant(input, 2, 'SponsoringRateLimit') === 0 ? 0 : u32.dec(input))
);

// polkadot.js form: {SponsoringDisabled: null} / {Blocks: n}; the ledger keeps "disabled" as 0, so Blocks(0) has no place.
withChainJsonReader(sponsoringRateLimit, (value, path) => {
  const [variant, blocks] = readChainEnum(value, ['SponsoringDisabled', 'Blocks'] as const, path, 'SponsoringRateLimit');
  if (variant === 'SponsoringDisabled') return 0;
  const read = fromChainJson(u32, blocks, `${path}.Blocks`);
  if (read === 0) throw new ScaleError(`${path}.Blocks must be at least 1 (use SponsoringDisabled)`);
  return read;
});

/** `codec`, a hand-built wrapper whose value has the same fields as `shape`, reads polkadot.js JSON as `shape` does. */
function readsChainJsonAs<C extends Codec<any>>(codec: C, shape: Codec<any>): C {
  return withChainJsonReader(codec, (value, path) => fromChainJson(shape, value, path));
}

const limitsStruct = Struct({
  accountTokenOwnershipLimit: option(u32),
  sponsoredDataSize: option(u32),
  sponsoredDataRateLimit: option(sponsoringRateLimit),
  tokenLimit: option(u32),
  sponsorTransferTimeout: option(u32),
  sponsorApproveTimeout: option(u32),
  ownerCanTransfer: option(bool),
  ownerCanDestroy: option(bool),
  transfersEnabled: option(bool)
});

/** `CollectionLimits`: every field an Option; null and absent both encode as None. */
const collectionLimits = createCodecOf<CollectionLimitsInput>(
  (limits: CollectionLimitsInput) =>
    limitsStruct.enc({
      accountTokenOwnershipLimit: limits.accountTokenOwnershipLimit ?? undefined,
      sponsoredDataSize: limits.sponsoredDataSize ?? undefined,
      sponsoredDataRateLimit: limits.sponsoredDataRateLimit ?? undefined,
      tokenLimit: limits.tokenLimit ?? undefined,
      sponsorTransferTimeout: limits.sponsorTransferTimeout ?? undefined,
      sponsorApproveTimeout: limits.sponsorApproveTimeout ?? undefined,
      ownerCanTransfer: limits.ownerCanTransfer ?? undefined,
      ownerCanDestroy: limits.ownerCanDestroy ?? undefined,
      transfersEnabled: limits.transfersEnabled ?? undefined
    }),
  (input) => withoutUndefined(limitsStruct.dec(input)) as CollectionLimitsInput
);

readsChainJsonAs(collectionLimits, limitsStruct);

const nestingStruct = Struct({ tokenOwner: bool, collectionAdmin: bool, restricted: option(vec(u32)) });

/** `NestingPermissions`; the chain replaces them whole, so missing flags encode as false. */
const nestingPermissions = createCodecOf<Partial<NestingPermissions>>(
  (nesting: Partial<NestingPermissions>) =>
    nestingStruct.enc({
      tokenOwner: nesting.tokenOwner ?? false,
      collectionAdmin: nesting.collectionAdmin ?? false,
      restricted: nesting.restricted ?? undefined
    }),
  (input): NestingPermissions => {
    const { tokenOwner, collectionAdmin, restricted } = nestingStruct.dec(input);
    return { tokenOwner, collectionAdmin, restricted: restricted ?? null };
  }
);

readsChainJsonAs(nestingPermissions, nestingStruct);

const permissionsStruct = Struct({
  access: option(accessMode),
  mintMode: option(bool),
  nesting: option(nestingPermissions)
});

/** `CollectionPermissions`: access, mintMode and nesting, each an Option. */
const collectionPermissions = createCodecOf<CollectionPermissionsInput>(
  (permissions: CollectionPermissionsInput) =>
    permissionsStruct.enc({
      access: permissions.access ?? undefined,
      mintMode: permissions.mintMode ?? undefined,
      nesting: permissions.nesting ?? undefined
    }),
  (input) => withoutUndefined(permissionsStruct.dec(input)) as CollectionPermissionsInput
);

readsChainJsonAs(collectionPermissions, permissionsStruct);

const EXTERNAL_FLAG = 0x01;
const ERC721_METADATA_FLAG = 0x40;
type FlagFields = Pick<CreateCollectionData, 'readOnly' | 'erc721metadata'>;

/** `CollectionFlags` (bondrewd, one byte, MSB first): foreign 0x80, erc721metadata 0x40, external 0x01; set flags decode as true, others as absent. */
const collectionFlags: Codec<FlagFields> = createCodecOf<FlagFields>(
  ({ readOnly, erc721metadata }: FlagFields) => u8.enc((readOnly ? EXTERNAL_FLAG : 0) | (erc721metadata ? ERC721_METADATA_FLAG : 0)),
  (input): FlagFields => {
    const flags = u8.dec(input);
    if (flags & ~(EXTERNAL_FLAG | ERC721_METADATA_FLAG)) throw new ScaleError(`collection flags 0x${flags.toString(16)} are not supported (only erc721metadata 0x40 and external 0x01)`);
    return { ...(flags & EXTERNAL_FLAG ? { readOnly: true } : {}), ...(flags & ERC721_METADATA_FLAG ? { erc721metadata: true } : {}) };
  }
);

/** The flags byte in polkadot.js JSON: a number, 0x hex or [byte] (`[u8; 1]`), or `{external, erc721metadata}`. */
function readChainFlags(value: unknown, path: string): FlagFields {
  if (isRecord(value)) {
    if (value.foreign) throw new ScaleError(`${path}.foreign cannot be set`);
    return { ...(value.external ? { readOnly: true } : {}), ...(value.erc721metadata ? { erc721metadata: true } : {}) };
  }
  const byte = Array.isArray(value) && value.length === 1 ? value[0] : typeof value === 'string' && /^0x[0-9a-fA-F]{2}$/.test(value) ? Number.parseInt(value.slice(2), 16) : value;
  if (!Number.isInteger(byte) || byte < 0 || byte > 0xff) throw new ScaleError(`${path} must be the flags byte, not ${quote(JSON.stringify(value) ?? String(value))}`);
  // The decoder reads the byte and refuses the bits the ledger does not model.
  return collectionFlags.dec(new Uint8Array([byte]));
}
withChainDefault(collectionFlags, () => ({}));
withChainJsonReader(collectionFlags, readChainFlags);

const createCollectionStruct = Struct({
  mode: collectionMode,
  access: option(accessMode),
  name: utf16,
  description: utf16,
  tokenPrefix: utf8,
  limits: option(collectionLimits),
  permissions: option(collectionPermissions),
  tokenPropertyPermissions: vec(propertyKeyPermission),
  properties,
  adminList: vec(crossAccountId),
  pendingSponsor: option(crossAccountId),
  flags: collectionFlags
});

/** `CreateCollectionData` (see the header for the one departure from the chain). */
const createCollectionData = createCodecOf<CreateCollectionData>(
  (data: CreateCollectionData) =>
    createCollectionStruct.enc({
      mode: { mode: data.mode, decimals: data.decimals },
      access: data.access ?? undefined,
      name: data.name,
      description: data.description,
      tokenPrefix: data.tokenPrefix,
      limits: data.limits ?? undefined,
      permissions: data.permissions ?? undefined,
      tokenPropertyPermissions: data.tokenPropertyPermissions,
      properties: data.properties,
      adminList: data.adminList,
      pendingSponsor: data.pendingSponsor ?? undefined,
      flags: { readOnly: data.readOnly, erc721metadata: data.erc721metadata }
    }),
  (input) => {
    const { mode, flags, ...rest } = createCollectionStruct.dec(input);
    return withoutUndefined({ mode: mode.mode, decimals: mode.decimals, ...rest, ...flags }) as CreateCollectionData;
  }
);

// polkadot.js form: the chain's struct (see readers of its fields), flattened as the decoder flattens it.
withChainJsonReader(createCollectionData, (value, path) => {
  if (!isRecord(value)) return value;
  const { mode, flags, ...rest } = fromChainJson(createCollectionStruct, value, path) as ReturnType<typeof createCollectionStruct.dec>;
  return { mode: mode?.mode, decimals: mode?.decimals, ...rest, ...flags };
});

type CreateItemArgs = CallArgs['unique.createItem'];

/** An item's amount, absent for NFT data (in JSON too: null is no amount). */
const optionalAmount = withJsonReader(option(u128), (value, path) => (value === undefined ? value : readAmount(value, path)));

/** The JSON reader of a hand-built codec whose value holds amounts in these fields. */
function readAmountsOf(fields: Parameters<typeof Struct>[0]): JsonReader {
  const shape = Struct(fields);
  return (value, path) => fromJson(shape, value, path);
}

/** The amount of a Fungible or ReFungible item, which it must have. */
function itemAmount(amount: bigint | undefined, what: string): bigint {
  if (amount === undefined) throw new ScaleError(`${what} item data needs an amount`);
  return amount;
}

/**
 * `CreateItemData`: NFT { properties } (no `kind`), Fungible { value } (`amount`, no properties) or
 * ReFungible { pieces, properties } (`amount`).
 */
const createItemData: Codec<ItemData> = withJsonReader(createCodecOf<ItemData>(
  (data: ItemData) => {
    if (data.kind === undefined) {
      if (data.amount !== undefined) throw new ScaleError('NFT item data has no amount');
      return concatBytes([new Uint8Array([0]), properties.enc(data.properties)]);
    }
    if (data.kind === 'Fungible') {
      if (data.properties.length > 0) throw new ScaleError('Fungible item data has no properties');
      return concatBytes([new Uint8Array([1]), u128.enc(itemAmount(data.amount, 'Fungible'))]);
    }
    if (data.kind !== 'ReFungible') throw new ScaleError(`unknown item data kind ${String(data.kind)}`);
    return concatBytes([new Uint8Array([2]), u128.enc(itemAmount(data.amount, 'ReFungible')), properties.enc(data.properties)]);
  },
  (input): ItemData => {
    const index = readVariant(input, 3, 'CreateItemData');
    if (index === 0) return { properties: properties.dec(input) };
    if (index === 1) return { properties: [], kind: 'Fungible', amount: u128.dec(input) };
    const amount = u128.dec(input);
    return { properties: properties.dec(input), kind: 'ReFungible', amount };
  }
), readAmountsOf({ amount: optionalAmount }));

/** `{Variant: {...}}` of an item data enum as [variant, its fields]; throws unless the fields are an object. */
function readChainItemData<N extends string>(value: unknown, names: readonly N[], path: string, what: string): [N, Record<string, unknown>, string] {
  const [variant, inner] = readChainEnum(value, names, path, what);
  const at = `${path}.${variant}`;
  if (!isRecord(inner) && !Array.isArray(inner)) throw new ScaleError(`${at} must be an object, not ${quote(JSON.stringify(inner) ?? String(inner))}`);
  return [variant, inner as Record<string, unknown>, at];
}

/** A u128 in polkadot.js JSON (number, decimal string or hex), read where it is. */
const readChainAmount = (value: unknown, path: string): bigint => readAmount(fromChainJson(u128, value, path), path);

// polkadot.js form: {NFT: {properties}} / {Fungible: {value}} / {ReFungible: {pieces, properties}}.
withChainJsonReader(createItemData, (value, path): ItemData => {
  const [variant, data, at] = readChainItemData(value, ['NFT', 'Fungible', 'ReFungible'] as const, path, 'CreateItemData');
  const itemProperties = () => fromChainJson(properties, data.properties ?? [], `${at}.properties`) as ItemData['properties'];
  if (variant === 'NFT') return { properties: itemProperties() };
  if (variant === 'Fungible') return { properties: [], kind: 'Fungible', amount: readChainAmount(data.value, `${at}.value`) };
  return { properties: itemProperties(), kind: 'ReFungible', amount: readChainAmount(data.pieces, `${at}.pieces`) };
});

const nftExItems = vec(Struct({ properties, owner: crossAccountId }));
const fungibleExItems = vec(Struct({ owner: crossAccountId, amount: u128 }));
const refungibleExItem = Struct({ user: crossAccountId, pieces: u128, properties });
const refungibleExItems = vec(refungibleExItem);
const refungibleExOwners = Struct({ users: fungibleExItems, properties });

type CreateMultipleArgs = Pick<CallArgs['unique.createMultipleItemsEx'], 'items' | 'kind' | 'properties'>;

/** A bytewise order, as BTreeMap keys are sorted by their encoding. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return a[k] - b[k];
  return a.length - b.length;
}

/**
 * `BTreeMap<CrossAccountId, u128>` in polkadot.js JSON: an object keyed by an address or the JSON
 * of a CrossAccountId, or a list of [account, amount] pairs; as items in the map's (encoded key) order.
 */
function readChainAccountAmounts(value: unknown, path: string): MintItem[] {
  const pairs = Array.isArray(value) ? value : isRecord(value) ? Object.entries(value) : undefined;
  if (!pairs) throw new ScaleError(`${path} must be a map of account to amount, not ${quote(JSON.stringify(value) ?? String(value))}`);
  const items = pairs.map((pair: unknown, k) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new ScaleError(`${path}[${k}] must be an [account, amount] pair`);
    let key: unknown = pair[0];
    if (typeof key === 'string' && key.startsWith('{')) {
      try {
        key = JSON.parse(key);
      } catch {
        throw new ScaleError(`${path}[${k}] key is not an account: ${quote(key)}`);
      }
    }
    const owner = fromChainJson(crossAccountId, key, `${path}[${k}][0]`) as Address;
    return { owner, properties: [], amount: readChainAmount(pair[1], `${path}[${k}][1]`), key: crossAccountId.enc(owner) };
  });
  items.sort((a, b) => compareBytes(a.key, b.key));
  for (let k = 1; k < items.length; k++) if (compareBytes(items[k - 1].key, items[k].key) === 0) throw new ScaleError(`${path} names ${items[k].owner} twice`);
  return items.map(({ owner, properties: p, amount }) => ({ owner, properties: p, amount }));
}

/** Where the item list of a create-multiple call holds amounts, for its JSON form. */
const readMintItems = readAmountsOf({ items: vec(Struct({ amount: optionalAmount })) });

/**
 * `CreateItemExData`: NFT(Vec<{properties, owner}>) (no `kind`), Fungible(BTreeMap<owner, value>)
 * (items without properties, in the given order), RefungibleMultipleItems(Vec<{user, pieces,
 * properties}>) (`kind` ReFungible) or RefungibleMultipleOwners({users: BTreeMap<owner, pieces>,
 * properties}) (one token: `items` its holders without properties, `properties` the token's).
 */
const createItemExData: Codec<CreateMultipleArgs> = createCodecOf<CreateMultipleArgs>(
  ({ items, kind, properties: tokenProperties }: CreateMultipleArgs) => {
    if (tokenProperties !== undefined && kind !== 'RefungibleMultipleOwners') throw new ScaleError('only RefungibleMultipleOwners data has properties beside its items');
    if (kind === undefined) {
      if (items.some((i) => i.amount !== undefined)) throw new ScaleError('NFT items have no amount');
      return concatBytes([new Uint8Array([0]), nftExItems.enc(items.map((i) => ({ properties: i.properties, owner: i.owner })))]);
    }
    if (kind === 'Fungible' || kind === 'RefungibleMultipleOwners') {
      if (items.some((i) => i.properties.length > 0)) throw new ScaleError(`${kind} items have no properties`);
      const users = fungibleExItems.enc(items.map((i) => ({ owner: i.owner, amount: itemAmount(i.amount, kind) })));
      if (kind === 'Fungible') return concatBytes([new Uint8Array([1]), users]);
      return concatBytes([new Uint8Array([3]), users, properties.enc(tokenProperties ?? [])]);
    }
    if (kind !== 'ReFungible') throw new ScaleError(`unknown item data kind ${String(kind)}`);
    const encoded = items.map((i) => ({ user: i.owner, pieces: itemAmount(i.amount, 'ReFungible'), properties: i.properties }));
    return concatBytes([new Uint8Array([2]), refungibleExItems.enc(encoded)]);
  },
  (input): CreateMultipleArgs => {
    const index = readVariant(input, 4, 'CreateItemExData');
    if (index === 0) return { items: nftExItems.dec(input).map((item) => ({ owner: item.owner, properties: item.properties })) };
    if (index === 1) return { items: fungibleExItems.dec(input).map(({ owner, amount }) => ({ owner, properties: [], amount })), kind: 'Fungible' };
    if (index === 2) {
      const items = refungibleExItems.dec(input).map(({ user, pieces, properties }) => ({ owner: user, properties, amount: pieces }));
      return { items, kind: 'ReFungible' };
    }
    const { users, properties: tokenProperties } = refungibleExOwners.dec(input);
    return { items: users.map(({ owner, amount }) => ({ owner, properties: [], amount })), kind: 'RefungibleMultipleOwners', properties: tokenProperties };
  }
);

// polkadot.js form: {NFT: [{properties, owner}]} / {Fungible: {account: value}} /
// {RefungibleMultipleItems: [{user, pieces, properties}]} / {RefungibleMultipleOwners: {users, properties}}.
withChainJsonReader(createItemExData, (value, path): CreateMultipleArgs => {
  const variants = ['NFT', 'Fungible', 'RefungibleMultipleItems', 'RefungibleMultipleOwners'] as const;
  const [variant, data, at] = readChainItemData(value, variants, path, 'CreateItemExData');
  if (variant === 'NFT') return { items: fromChainJson(nftExItems, data, at) as MintItem[] };
  if (variant === 'Fungible') return { items: readChainAccountAmounts(data, at), kind: 'Fungible' };
  if (variant === 'RefungibleMultipleItems') {
    if (!Array.isArray(data)) throw new ScaleError(`${at} must be a list`);
    const items = data.map((item: unknown, k) => {
      const { user, pieces, properties: p } = fromChainJson(refungibleExItem, item, `${at}[${k}]`) as Record<string, unknown>;
      return { owner: user as Address, amount: readChainAmount(pieces, `${at}[${k}].pieces`), properties: p as MintItem['properties'] };
    });
    return { items, kind: 'ReFungible' };
  }
  const tokenProperties = fromChainJson(properties, data.properties ?? [], `${at}.properties`) as CreateMultipleArgs['properties'];
  return { items: readChainAccountAmounts(data.users, `${at}.users`), kind: 'RefungibleMultipleOwners', properties: tokenProperties };
});

// ---- the call table -------------------------------------------------------------------------

/** A call's arguments as the chain declares them, in order, and how their values make the named args. */
interface ChainArgs {
  fields: Array<[string, Codec<any>]>;
  toNamed: (values: Record<string, any>) => unknown;
}

interface CallSpec<N extends CallName> {
  pallet: number;
  index: number;
  args: Codec<CallArgs[N]>;
  /** Only where the named args differ from the chain's arguments; otherwise the args struct's fields. */
  chainArgs?: ChainArgs;
}

const collectionIdOnly = Struct({ collectionId: u32 });

const UTILITY_CALLS = new Set<CallName>(['utility.batch', 'utility.batchAll']);

/** A call inside a batch: index bytes then arguments; a batch inside a batch is refused (depth 1). */
const batchedCall: Codec<Call> = createCodecOf(
  (call: Call) => {
    const spec = CALLS[call?.name] as CallSpec<CallName> | undefined;
    if (!spec) throw new ScaleError(`unknown call ${String(call?.name)}`);
    if (UTILITY_CALLS.has(call.name)) throw new ScaleError('a batch cannot contain another batch');
    return concatBytes([new Uint8Array([spec.pallet, spec.index]), spec.args.enc(call.args)]);
  },
  (input) => {
    const pallet = u8.dec(input);
    const index = u8.dec(input);
    const name = BY_INDEX.get(pallet * 256 + index);
    if (!name) throw new ScaleError(`unknown call index ${index} in pallet ${pallet}`);
    if (UTILITY_CALLS.has(name)) throw new ScaleError('a batch cannot contain another batch');
    return { name, args: (CALLS[name].args as Codec<unknown>).dec(input) } as Call;
  }
);
withJsonReader(batchedCall, (value, path) => {
  const name = (value as Partial<Call> | null)?.name;
  const spec = typeof name === 'string' && Object.hasOwn(CALLS, name) ? (CALLS[name as CallName] as CallSpec<CallName>) : undefined;
  return spec ? { ...(value as Call), args: fromJson(spec.args, (value as Call).args, `${path}.args`) } : value;
});
const batchedCalls = Struct({ calls: vec(batchedCall) });

const CALLS: { [N in CallName]: CallSpec<N> } = {
  'unique.createCollectionEx': { pallet: UNIQUE_PALLET, index: 1, args: Struct({ data: createCollectionData }) },
  'unique.destroyCollection': { pallet: UNIQUE_PALLET, index: 2, args: collectionIdOnly },
  'unique.addToAllowList': { pallet: UNIQUE_PALLET, index: 3, args: Struct({ collectionId: u32, address: crossAccountId }) },
  'unique.removeFromAllowList': { pallet: UNIQUE_PALLET, index: 4, args: Struct({ collectionId: u32, address: crossAccountId }) },
  'unique.changeCollectionOwner': { pallet: UNIQUE_PALLET, index: 5, args: Struct({ collectionId: u32, newOwner: substrateAccountId }) },
  'unique.addCollectionAdmin': { pallet: UNIQUE_PALLET, index: 6, args: Struct({ collectionId: u32, newAdmin: crossAccountId }) },
  'unique.removeCollectionAdmin': { pallet: UNIQUE_PALLET, index: 7, args: Struct({ collectionId: u32, account: crossAccountId }) },
  'unique.setCollectionSponsor': { pallet: UNIQUE_PALLET, index: 8, args: Struct({ collectionId: u32, newSponsor: substrateAccountId }) },
  'unique.confirmSponsorship': { pallet: UNIQUE_PALLET, index: 9, args: collectionIdOnly },
  'unique.removeCollectionSponsor': { pallet: UNIQUE_PALLET, index: 10, args: collectionIdOnly },
  'unique.createItem': {
    pallet: UNIQUE_PALLET,
    index: 11,
    args: withJsonReader(
      createCodecOf(
        (a: CreateItemArgs) =>
          concatBytes([u32.enc(a.collectionId), crossAccountId.enc(a.owner), createItemData.enc({ properties: a.properties, kind: a.kind, amount: a.amount })]),
        (input) => ({ collectionId: u32.dec(input), owner: crossAccountId.dec(input), ...createItemData.dec(input) })
      ),
      readAmountsOf({ amount: optionalAmount })
    ),
    chainArgs: {
      fields: [['collectionId', u32], ['owner', crossAccountId], ['data', createItemData]],
      toNamed: ({ data, ...rest }) => ({ ...rest, ...data })
    }
  },
  'unique.createMultipleItems': {
    pallet: UNIQUE_PALLET,
    index: 12,
    args: Struct({ collectionId: u32, owner: crossAccountId, items: vec(createItemData) })
  },
  'unique.setCollectionProperties': { pallet: UNIQUE_PALLET, index: 13, args: Struct({ collectionId: u32, properties }) },
  'unique.deleteCollectionProperties': { pallet: UNIQUE_PALLET, index: 14, args: Struct({ collectionId: u32, propertyKeys: vec(utf8) }) },
  'unique.setTokenProperties': {
    pallet: UNIQUE_PALLET,
    index: 15,
    args: Struct({ collectionId: u32, tokenId: u32, properties })
  },
  'unique.deleteTokenProperties': {
    pallet: UNIQUE_PALLET,
    index: 16,
    args: Struct({ collectionId: u32, tokenId: u32, propertyKeys: vec(utf8) })
  },
  'unique.setTokenPropertyPermissions': {
    pallet: UNIQUE_PALLET,
    index: 17,
    args: Struct({ collectionId: u32, propertyPermissions: vec(propertyKeyPermission) })
  },
  'unique.createMultipleItemsEx': {
    pallet: UNIQUE_PALLET,
    index: 18,
    args: withJsonReader(
      createCodecOf(
        (a: CallArgs['unique.createMultipleItemsEx']) =>
          concatBytes([u32.enc(a.collectionId), createItemExData.enc({ items: a.items, kind: a.kind, properties: a.properties })]),
        (input) => ({ collectionId: u32.dec(input), ...createItemExData.dec(input) })
      ),
      readMintItems
    ),
    chainArgs: { fields: [['collectionId', u32], ['data', createItemExData]], toNamed: ({ data, ...rest }) => ({ ...rest, ...data }) }
  },
  'unique.setTransfersEnabledFlag': { pallet: UNIQUE_PALLET, index: 19, args: Struct({ collectionId: u32, value: bool }) },
  'unique.burnItem': { pallet: UNIQUE_PALLET, index: 20, args: Struct({ collectionId: u32, tokenId: u32, value: u128 }) },
  'unique.burnFrom': {
    pallet: UNIQUE_PALLET,
    index: 21,
    args: Struct({ collectionId: u32, from: crossAccountId, tokenId: u32, value: u128 })
  },
  'unique.transfer': { pallet: UNIQUE_PALLET, index: 22, args: Struct({ to: crossAccountId, collectionId: u32, tokenId: u32, value: u128 }) },
  'unique.approve': {
    pallet: UNIQUE_PALLET,
    index: 23,
    args: Struct({ spender: crossAccountId, collectionId: u32, tokenId: u32, amount: u128 })
  },
  'unique.transferFrom': {
    pallet: UNIQUE_PALLET,
    index: 25,
    args: Struct({ from: crossAccountId, to: crossAccountId, collectionId: u32, tokenId: u32, value: u128 })
  },
  'unique.setCollectionLimits': { pallet: UNIQUE_PALLET, index: 26, args: Struct({ collectionId: u32, limits: collectionLimits }) },
  'unique.setCollectionPermissions': {
    pallet: UNIQUE_PALLET,
    index: 27,
    args: Struct({ collectionId: u32, permissions: collectionPermissions })
  },
  'unique.repartition': { pallet: UNIQUE_PALLET, index: 28, args: Struct({ collectionId: u32, tokenId: u32, amount: u128 }) },
  'unique.setAllowanceForAll': { pallet: UNIQUE_PALLET, index: 29, args: Struct({ collectionId: u32, operator: crossAccountId, approve: bool }) },
  'balances.transferKeepAlive': { pallet: BALANCES_PALLET, index: 3, args: Struct({ dest: multiAddress, value: compactBig }) },
  'utility.batch': { pallet: UTILITY_PALLET, index: 0, args: batchedCalls },
  'utility.batchAll': { pallet: UTILITY_PALLET, index: 2, args: batchedCalls }
};

const BY_INDEX = new Map<number, CallName>(
  (Object.keys(CALLS) as CallName[]).map((name) => [CALLS[name].pallet * 256 + CALLS[name].index, name])
);

const PALLETS = new Set((Object.keys(CALLS) as CallName[]).map((name) => CALLS[name].pallet));

/** `[pallet index, call index]` of a call name. */
export function callIndexOf(name: CallName): [number, number] {
  const spec = CALLS[name];
  if (!spec) throw new CallEncodeError(`Unknown call: ${String(name)}`);
  return [spec.pallet, spec.index];
}

/** The call's method bytes: pallet index ‖ call index ‖ SCALE arguments. */
export function encodeCall(call: Call): Uint8Array {
  const spec = CALLS[call?.name] as CallSpec<CallName> | undefined;
  if (!spec) throw new CallEncodeError(`Unknown call: ${String(call?.name)}`);
  try {
    return concatBytes([new Uint8Array([spec.pallet, spec.index]), spec.args.enc(call.args)]);
  } catch (err) {
    if (err instanceof ScaleError || err instanceof InvalidAddressError || err instanceof TypeError) {
      throw new CallEncodeError(`Cannot encode ${call.name}: ${err.message}`);
    }
    throw err;
  }
}

/**
 * Positional args in polkadot.js form (the chain's argument order and JSON) as the call's named
 * args; each argument is read and encoded alone, so that an error names it (`args[2]`).
 */
function namedFromPositional(name: string, spec: CallSpec<CallName>, args: unknown[]): unknown {
  const chain = spec.chainArgs ?? { fields: structFields(spec.args) ?? [], toNamed: (values) => values };
  const names = chain.fields.map(([field]) => field);
  if (args.length !== names.length) {
    throw new CallEncodeError(`Cannot encode ${name}: args has ${args.length} value(s), ${name} takes ${names.length} (${names.join(', ')})`);
  }
  const values: Record<string, unknown> = {};
  chain.fields.forEach(([field, codec], k) => {
    const path = `args[${k}]`;
    try {
      const value = fromJson(codec, fromChainJson(codec, args[k], path), path);
      codec.enc(value);
      values[field] = value;
    } catch (err) {
      if (!(err instanceof ScaleError || err instanceof InvalidAddressError || err instanceof TypeError)) throw err;
      const message = err.message.startsWith(path) ? err.message : `${path} (${field}): ${err.message}`;
      throw new CallEncodeError(`Cannot encode ${name}: ${message}; got ${quote(JSON.stringify(args[k]) ?? String(args[k]))}`);
    }
  });
  return chain.toNamed(values);
}

/**
 * A call from its JSON form: the arguments as `encodeCall` takes them, except that amounts (u128,
 * at any depth: item amounts, pieces, batched calls) may be JSON numbers or decimal strings; or
 * a list of the chain's arguments in order, in polkadot.js JSON (as the real service takes them).
 * Throws `CallEncodeError` for an unknown call or an amount that is not a u128, naming its field.
 */
export function callFromJson(name: string, args: unknown): Call {
  if (!Object.hasOwn(CALLS, name)) throw new CallEncodeError(`Unknown call: ${String(name)}`);
  const spec = CALLS[name as CallName] as CallSpec<CallName>;
  try {
    const named = Array.isArray(args) ? namedFromPositional(name, spec, args) : args;
    return { name, args: fromJson(spec.args, named, 'args') } as Call;
  } catch (err) {
    if (err instanceof ScaleError) throw new CallEncodeError(`Cannot encode ${name}: ${err.message}`);
    throw err;
  }
}

/** The call's arguments as the chain declares them, in order (the list positional `callFromJson` reads). */
export function chainArgsOf(call: Call): unknown[] {
  const spec = CALLS[call.name] as CallSpec<CallName>;
  const codecs = (spec.chainArgs?.fields ?? structFields(spec.args) ?? []).map(([, codec]) => codec);
  return decodeExact((input) => codecs.map((codec) => codec.dec(input)), encodeCall(call).subarray(2));
}

/** The call in method bytes; throws `CallDecodeError` for anything but exactly one known call. */
export function decodeCall(bytes: Uint8Array): Call {
  if (bytes.length < 2) throw new CallDecodeError(`Call is truncated: ${bytes.length} byte(s), a call index needs 2`);
  const [pallet, index] = bytes;
  if (!PALLETS.has(pallet)) throw new CallDecodeError(`Unknown pallet index ${pallet}`);
  const name = BY_INDEX.get(pallet * 256 + index);
  if (!name) throw new CallDecodeError(`Unknown call index ${index} in pallet ${pallet}`);
  try {
    const args = decodeExact(CALLS[name].args as Codec<unknown>, bytes.subarray(2));
    return { name, args } as Call;
  } catch (err) {
    if (err instanceof ScaleError || err instanceof InvalidAddressError) {
      throw new CallDecodeError(`Cannot decode the arguments of ${name}: ${err.message}`);
    }
    throw err;
  }
}
