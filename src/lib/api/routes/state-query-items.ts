// The chain storage items and constants a state query can read (`api.<endpoint>.<module>.<method>`
// of polkadot.js on a Unique chain): accounts (nonce, balance), the block number, collections,
// NFT token data and owners, counters, the collection creation price. Each reads the ledger and
// builds the value with the chain's type, as state-query-values.ts serializes it.
import { isEthereumAddress, isValidAddress, normalizeAddress } from '../../codec/address';
import { COLLECTION_CREATION_PRICE } from '../../ledger/constants';
import { META, readMeta } from '../../ledger/meta';
import type { QueryTx } from '../../ledger/store';
import type { CollectionRecord } from '../../ledger/types';
import type { LedgerReads } from '../../ledger/chain/reads';
import { validationError } from '../errors';
import { quote } from '../../limits';
import { accountId, bool, byteString, enumValue, h160, option, struct, uint, vec, type ChainValue } from './state-query-values';

export type QueryArg = unknown;

export interface Item {
  /** Names of the arguments, for messages. */
  args: string[];
  read(tx: QueryTx, ledger: LedgerReads, args: QueryArg[]): Promise<ChainValue>;
}

// ---- arguments ------------------------------------------------------------------------------------

export function u32Arg(value: QueryArg, name: string): number {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffff_ffff) throw validationError(`${name} must be a u32 number, got ${quote(JSON.stringify(value))}`);
  return n;
}

function addressArg(value: QueryArg, name: string): string {
  if (typeof value !== 'string' || !isValidAddress(value)) throw validationError(`${name} must be an address, got ${quote(JSON.stringify(value))}`);
  return normalizeAddress(value);
}

/** A CrossAccountId: `{Substrate: ss58}`, `{Ethereum: 0x…}` (any case of the key), or a bare address. */
export function crossAccountArg(value: QueryArg, name: string): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 1 && ['substrate', 'ethereum'].includes(entries[0][0].toLowerCase())) return addressArg(entries[0][1], name);
    throw validationError(`${name} must be {Substrate: address} or {Ethereum: address}`);
  }
  return addressArg(value, name);
}

// ---- chain types ----------------------------------------------------------------------------------

const CROSS_ACCOUNT: Array<[string, string]> = [
  ['Substrate', 'AccountId32'],
  ['Ethereum', 'H160']
];

export function crossAccount(address: string, ss58Prefix: number): ChainValue {
  return isEthereumAddress(address) ? enumValue(CROSS_ACCOUNT, 'Ethereum', h160(address)) : enumValue(CROSS_ACCOUNT, 'Substrate', accountId(address, ss58Prefix));
}

function utf16Units(text: string): ChainValue {
  return vec('u16', Array.from({ length: text.length }, (_, i) => uint(16, text.charCodeAt(i))));
}

const optionU32 = (v: number | null) => option('u32', v === null ? null : uint(32, v));
const optionBool = (v: boolean | null) => option('bool', v === null ? null : bool(v));

function limitsValue(c: CollectionRecord): ChainValue {
  const l = c.limits;
  const rate = l.sponsoredDataRateLimit;
  const rateLimit = rate === null ? null : rate === 0 ? enumValue(RATE_LIMIT, 'SponsoringDisabled') : enumValue(RATE_LIMIT, 'Blocks', uint(32, rate));
  return struct([
    ['accountTokenOwnershipLimit', 'Option<u32>', optionU32(l.accountTokenOwnershipLimit)],
    ['sponsoredDataSize', 'Option<u32>', optionU32(l.sponsoredDataSize)],
    ['sponsoredDataRateLimit', 'Option<UpDataStructsSponsoringRateLimit>', option('UpDataStructsSponsoringRateLimit', rateLimit)],
    ['tokenLimit', 'Option<u32>', optionU32(l.tokenLimit)],
    ['sponsorTransferTimeout', 'Option<u32>', optionU32(l.sponsorTransferTimeout)],
    ['sponsorApproveTimeout', 'Option<u32>', optionU32(l.sponsorApproveTimeout)],
    ['ownerCanTransfer', 'Option<bool>', optionBool(l.ownerCanTransfer)],
    ['ownerCanDestroy', 'Option<bool>', optionBool(l.ownerCanDestroy)],
    ['transfersEnabled', 'Option<bool>', optionBool(l.transfersEnabled)]
  ]);
}

const RATE_LIMIT: Array<[string, string]> = [
  ['SponsoringDisabled', 'Null'],
  ['Blocks', 'u32']
];

function permissionsValue(c: CollectionRecord): ChainValue {
  const { access, mintMode, nesting } = c.permissions;
  const restricted = nesting.restricted === null ? null : vec('u32', [...nesting.restricted].sort((a, b) => a - b).map((id) => uint(32, id)));
  const nestingValue = struct([
    ['tokenOwner', 'bool', bool(nesting.tokenOwner)],
    ['collectionAdmin', 'bool', bool(nesting.collectionAdmin)],
    ['restricted', 'Option<UpDataStructsOwnerRestrictedSet>', option('UpDataStructsOwnerRestrictedSet', restricted && { ...restricted, rawType: 'BTreeSet<u32>' })]
  ]);
  const accessValue = enumValue(
    [
      ['Normal', 'Null'],
      ['AllowList', 'Null']
    ],
    access
  );
  return struct([
    ['access', 'Option<UpDataStructsAccessMode>', option('UpDataStructsAccessMode', accessValue)],
    ['mintMode', 'Option<bool>', option('bool', bool(mintMode))],
    ['nesting', 'Option<UpDataStructsNestingPermissions>', option('UpDataStructsNestingPermissions', nestingValue)]
  ]);
}

/** `CollectionFlags` as one byte: erc721metadata 0x40, external (read-only) 0x01; Opalite has no foreign collections. */
function flagsValue(c: CollectionRecord): ChainValue {
  const byte = (c.erc721metadata ? 0x40 : 0) | (c.readOnly ? 0x01 : 0);
  const hex = `0x${byte.toString(16).padStart(2, '0')}`;
  return { rawType: '[u8;1]', bytes: new Uint8Array([byte]), json: hex, human: hex, isEmpty: byte === 0 };
}

/** The fields the storage's Collection and the RPC's RpcCollection share, in their order. */
export function collectionFields(c: CollectionRecord, ss58Prefix: number): Array<[string, string, ChainValue]> {
  const modes: Array<[string, string]> = [
    ['NFT', 'Null'],
    ['Fungible', 'u8'],
    ['ReFungible', 'Null']
  ];
  const sponsorships: Array<[string, string]> = [
    ['Disabled', 'Null'],
    ['Unconfirmed', 'AccountId32'],
    ['Confirmed', 'AccountId32']
  ];
  const sponsorship = c.sponsorship
    ? enumValue(sponsorships, c.sponsorship.isConfirmed ? 'Confirmed' : 'Unconfirmed', accountId(c.sponsorship.address, ss58Prefix))
    : enumValue(sponsorships, 'Disabled');
  return [
    ['owner', 'AccountId32', accountId(c.owner, ss58Prefix)],
    ['mode', 'UpDataStructsCollectionMode', enumValue(modes, c.mode, c.mode === 'Fungible' ? uint(8, c.decimals) : null)],
    ['name', 'Vec<u16>', utf16Units(c.name)],
    ['description', 'Vec<u16>', utf16Units(c.description)],
    ['tokenPrefix', 'Bytes', byteString(new TextEncoder().encode(c.tokenPrefix))],
    ['sponsorship', 'UpDataStructsSponsorshipStateAccountId32', sponsorship],
    ['limits', 'UpDataStructsCollectionLimits', limitsValue(c)],
    ['permissions', 'UpDataStructsCollectionPermissions', permissionsValue(c)]
  ];
}

function collectionValue(c: CollectionRecord, ss58Prefix: number): ChainValue {
  return struct([...collectionFields(c, ss58Prefix), ['flags', '[u8;1]', flagsValue(c)]]);
}

async function accountInfo(tx: QueryTx, address: string): Promise<ChainValue> {
  const account = await tx.get('accounts', address);
  const zero = uint(128, 0);
  return struct([
    ['nonce', 'u32', uint(32, account?.nonce ?? 0)],
    ['consumers', 'u32', uint(32, 0)],
    ['providers', 'u32', uint(32, account ? 1 : 0)],
    ['sufficients', 'u32', uint(32, 0)],
    ['data', 'PalletBalancesAccountData', struct([
      ['free', 'u128', uint(128, account?.free ?? 0n)],
      ['reserved', 'u128', zero],
      ['frozen', 'u128', zero],
      ['flags', 'u128', zero]
    ])]
  ]);
}

/** The NFT collection of a read, or undefined when it is missing or of another mode (the pallet holds nothing). */
async function nftCollection(tx: QueryTx, id: number): Promise<CollectionRecord | undefined> {
  const collection = await tx.get('collections', id);
  return collection?.mode === 'NFT' ? collection : undefined;
}

export const ITEMS: Record<string, Item> = {
  'query.system.number': { args: [], read: async (tx, ledger) => uint(32, (await ledger.head(tx)).number) },
  'query.system.account': { args: ['account'], read: async (tx, _l, [a]) => accountInfo(tx, addressArg(a, 'account')) },
  'query.common.collectionById': {
    args: ['collectionId'],
    read: async (tx, ledger, [id]) => {
      const collection = await tx.get('collections', u32Arg(id, 'collectionId'));
      return option('UpDataStructsCollection', collection ? collectionValue(collection, ledger.config.ss58Prefix) : null);
    }
  },
  'query.common.createdCollectionCount': { args: [], read: async (tx) => uint(32, await readMeta<number>(tx, META.createdCollectionCount, 0)) },
  'query.common.destroyedCollectionCount': { args: [], read: async (tx) => uint(32, await readMeta<number>(tx, META.destroyedCollectionCount, 0)) },
  'query.common.adminAmount': {
    args: ['collectionId'],
    read: async (tx, _l, [id]) => uint(32, (await tx.get('collections', u32Arg(id, 'collectionId')))?.admins.length ?? 0)
  },
  'query.nonfungible.tokenData': {
    args: ['collectionId', 'tokenId'],
    read: async (tx, ledger, [c, t]) => {
      const collectionId = u32Arg(c, 'collectionId');
      const token = (await nftCollection(tx, collectionId)) && (await tx.get('tokens', [collectionId, u32Arg(t, 'tokenId')]));
      const data = token ? struct([['owner', 'PalletEvmAccountBasicCrossAccountIdRepr', crossAccount(token.owner, ledger.config.ss58Prefix)]]) : null;
      return option('PalletNonfungibleItemData', data);
    }
  },
  'query.nonfungible.owned': {
    args: ['collectionId', 'account', 'tokenId'],
    read: async (tx, _l, [c, a, t]) => {
      const collectionId = u32Arg(c, 'collectionId');
      const owner = crossAccountArg(a, 'account');
      const token = (await nftCollection(tx, collectionId)) && (await tx.get('tokens', [collectionId, u32Arg(t, 'tokenId')]));
      return bool(token !== undefined && token.owner === owner);
    }
  },
  'query.nonfungible.accountBalance': {
    args: ['collectionId', 'account'],
    read: async (tx, _l, [c, a]) => {
      const collectionId = u32Arg(c, 'collectionId');
      const owner = crossAccountArg(a, 'account');
      return uint(32, (await nftCollection(tx, collectionId)) ? (await tx.tokensOfOwner(owner, collectionId)).length : 0);
    }
  },
  'query.nonfungible.tokensMinted': {
    args: ['collectionId'],
    read: async (tx, _l, [c]) => uint(32, (await nftCollection(tx, u32Arg(c, 'collectionId')))?.tokensMinted ?? 0)
  },
  'query.nonfungible.tokensBurnt': {
    args: ['collectionId'],
    read: async (tx, _l, [c]) => uint(32, (await nftCollection(tx, u32Arg(c, 'collectionId')))?.tokensBurnt ?? 0)
  },
  'consts.common.collectionCreationPrice': { args: [], read: async () => uint(128, COLLECTION_CREATION_PRICE) }
};
