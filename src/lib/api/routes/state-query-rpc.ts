// The chain's `unique` RPCs a state query can call (`rpc.unique.<method>` of polkadot.js on a
// Unique chain), for the reads the other methods make: a collection (RpcCollection, None when
// missing), token owners, the topmost owner, the last token id, token existence and the operator
// approval of setAllowanceForAll. A missing collection reads as the empty value of the type.
import { readPieces } from '../../ledger/refungible/state';
import { tokenExists } from '../../ledger/pieces';
import type { QueryTx } from '../../ledger/store';
import { allowanceForAll } from '../../ledger/tokens/allowance-for-all';
import { topmostOwner } from '../../ledger/tokens/nesting';
import type { Address, CollectionRecord, Property, PropertyKeyPermission } from '../../ledger/types';
import { collectionFields, crossAccount, crossAccountArg, u32Arg, type Item } from './state-query-items';
import { validationError } from '../errors';
import { fromReadError } from './lookups';
import { bool, byteString, option, struct, uint, vec, type ChainValue } from './state-query-values';

const CROSS_ACCOUNT_TYPE = 'PalletEvmAccountBasicCrossAccountIdRepr';
/** The chain's RPC lists at most 10 holders of a token (`token_owners`). */
const MAX_LISTED_OWNERS = 10;
const utf8 = (text: string) => byteString(new TextEncoder().encode(text));

function propertyValue({ key, value }: Property): ChainValue {
  return struct([
    ['key', 'Bytes', utf8(key)],
    ['value', 'Bytes', utf8(value)]
  ]);
}

function propertyKeyPermissionValue({ key, permission }: PropertyKeyPermission): ChainValue {
  return struct([
    ['key', 'Bytes', utf8(key)],
    ['permission', 'UpDataStructsPropertyPermission', struct([
      ['mutable', 'bool', bool(permission.mutable)],
      ['collectionAdmin', 'bool', bool(permission.collectionAdmin)],
      ['tokenOwner', 'bool', bool(permission.tokenOwner)]
    ])]
  ]);
}

/** `RpcCollection`: the stored collection's fields, its property lists, readOnly and the flags as booleans. */
function rpcCollectionValue(c: CollectionRecord, ss58Prefix: number): ChainValue {
  return struct([
    ...collectionFields(c, ss58Prefix),
    ['tokenPropertyPermissions', 'Vec<UpDataStructsPropertyKeyPermission>', vec('UpDataStructsPropertyKeyPermission', c.tokenPropertyPermissions.map(propertyKeyPermissionValue))],
    ['properties', 'Vec<UpDataStructsProperty>', vec('UpDataStructsProperty', c.properties.map(propertyValue))],
    ['readOnly', 'bool', bool(c.readOnly)],
    ['flags', 'UpDataStructsRpcCollectionFlags', struct([
      ['foreign', 'bool', bool(false)],
      ['erc721metadata', 'bool', bool(c.erc721metadata === true)]
    ])]
  ]);
}

/**
 * The holders of a token as the chain's `token_owners` lists them: an NFT's owner, a ReFungible
 * token's holders (at most 10), none for a missing token. A Fungible collection's holders are not
 * listed: the ledger keeps its balances as point lookups, with no index to list them.
 */
async function tokenHolders(tx: QueryTx, collectionId: number, tokenId: number): Promise<Address[]> {
  const collection = await tx.get('collections', collectionId);
  if (!collection) return [];
  if (collection.mode === 'Fungible') throw validationError(`The holders of Fungible collection ${collectionId} cannot be listed: Opalite keeps no index of them (read a balance with GET /fungible/balance)`);
  if (collection.mode === 'ReFungible') return Object.keys((await readPieces(tx, collectionId, tokenId))?.balances ?? {}).slice(0, MAX_LISTED_OWNERS);
  const token = await tx.get('tokens', [collectionId, tokenId]);
  return token ? [token.owner] : [];
}

const tokenArgs = (c: unknown, t: unknown) => [u32Arg(c, 'collection'), u32Arg(t, 'tokenId')] as const;

export const RPC_ITEMS: Record<string, Item> = {
  'rpc.unique.collectionById': {
    args: ['collection'],
    read: async (tx, ledger, [id]) => {
      const collection = await tx.get('collections', u32Arg(id, 'collection'));
      return option('UpDataStructsRpcCollection', collection ? rpcCollectionValue(collection, ledger.config.ss58Prefix) : null);
    }
  },
  'rpc.unique.lastTokenId': {
    args: ['collection'],
    read: async (tx, _l, [id]) => uint(32, (await tx.get('collections', u32Arg(id, 'collection')))?.tokensMinted ?? 0)
  },
  'rpc.unique.tokenExists': {
    args: ['collection', 'tokenId'],
    read: async (tx, _l, [c, t]) => bool(await tokenExists(tx, ...tokenArgs(c, t)))
  },
  'rpc.unique.tokenOwner': {
    args: ['collection', 'tokenId'],
    read: async (tx, ledger, [c, t]) => {
      // The chain's token_owner: None for a token split between holders (MultipleOwners, a Fungible collection's too) or missing.
      const [collectionId, tokenId] = tokenArgs(c, t);
      if ((await tx.get('collections', collectionId))?.mode === 'Fungible') return option(CROSS_ACCOUNT_TYPE, null);
      const holders = await tokenHolders(tx, collectionId, tokenId);
      return option(CROSS_ACCOUNT_TYPE, holders.length === 1 ? crossAccount(holders[0], ledger.config.ss58Prefix) : null);
    }
  },
  'rpc.unique.tokenOwners': {
    args: ['collection', 'tokenId'],
    read: async (tx, ledger, [c, t]) => vec(CROSS_ACCOUNT_TYPE, (await tokenHolders(tx, ...tokenArgs(c, t))).map((a) => crossAccount(a, ledger.config.ss58Prefix)))
  },
  'rpc.unique.topmostTokenOwner': {
    args: ['collection', 'tokenId'],
    read: async (tx, ledger, [c, t]) => {
      const owner = await topmostOwner(tx, ...tokenArgs(c, t)).catch(fromReadError);
      return option(CROSS_ACCOUNT_TYPE, owner === null ? null : crossAccount(owner, ledger.config.ss58Prefix));
    }
  },
  'rpc.unique.allowanceForAll': {
    args: ['collection', 'owner', 'operator'],
    read: async (tx, _l, [c, o, op]) => bool(await allowanceForAll(tx, u32Arg(c, 'collection'), crossAccountArg(o, 'owner'), crossAccountArg(op, 'operator')))
  }
};
