// Where a fork keeps what it knows about its source, in the local store's `meta` table (so a
// restart with the same database fetches nothing again): rows known absent at the fork block (or
// deleted since), the source's lists, and the source's last token id of each copied collection.
import type { Keys, TableName } from '../store';
import type { Address } from '../types';

/** The tables whose rows a fork copies from its source. */
export const FORKED_TABLES = ['accounts', 'collections', 'tokens', 'allowList', 'meta'] as const satisfies readonly TableName[];
export type ForkedTable = (typeof FORKED_TABLES)[number];

/** `meta` rows that are chain state of the source (fungible and ReFungible balances); the rest are this ledger's own. */
const FORKED_META = /^(ft:(supply|balance|allowance)|rft:(pieces|owned|allowance)):(\d+)(:|$)/;

/** The collection a forked `meta` key belongs to, or null when the key is this ledger's own. */
export function forkedMetaCollection(key: string): number | null {
  const match = FORKED_META.exec(key);
  return match ? Number(match[4]) : null;
}

export const rowId = (table: TableName, key: unknown) => `${table}:${JSON.stringify(key)}`;

/** Marks a row settled as absent: not at the source at the fork block, or deleted here since. */
export const goneKey = <N extends TableName>(table: N, key: Keys[N]) => `fork:gone:${rowId(table, key)}`;

export type ForkList =
  | { type: 'owned'; owner: Address; collectionId?: number }
  | { type: 'ids'; collectionId: number }
  | { type: 'children'; collectionId: number; tokenId: number }
  | { type: 'allow'; collectionId: number };

export function listKey(list: ForkList): string {
  switch (list.type) {
    case 'owned':
      return `fork:list:owned:${list.collectionId ?? '*'}:${list.owner}`;
    case 'ids':
      return `fork:list:ids:${list.collectionId}`;
    case 'children':
      return `fork:list:children:${list.collectionId}:${list.tokenId}`;
    case 'allow':
      return `fork:list:allow:${list.collectionId}`;
  }
}

/** The source's last token id of a copied collection: ids after it were minted here. */
export const mintedKey = (collectionId: number) => `fork:minted:${collectionId}`;

/** Whether a `meta` key is the fork's own bookkeeping (never copied, never exported as chain state). */
export const isForkKey = (key: string) => key.startsWith('fork:');
