// One miss of a fork, fetched from the source and turned into the writes that copy it in. A
// writer never overwrites: a row another copy (or a block) put there first is the one that stays.
import type { QueryTx, StateTx } from '../store';
import type { Address } from '../types';
import { goneKey, listKey, mintedKey, type ForkList, type ForkedTable } from './keys';
import { ForkSourceError, type ForkSource } from './source';

export type Miss = { id: string } & ({ table: ForkedTable; key: unknown; list?: undefined } | { list: ForkList; table?: undefined });

export type CopyWriter = (tx: QueryTx) => Promise<void>;

async function settled(tx: StateTx, table: ForkedTable, key: unknown): Promise<boolean> {
  const [row, gone] = await Promise.all([tx.get(table, key as never), tx.get('meta', goneKey(table, key as never))]);
  return row !== undefined || gone !== undefined;
}

/** The row, or the mark that it is absent, unless something settled it first. */
function rowWriter(table: ForkedTable, key: unknown, row: unknown, also?: (tx: QueryTx) => Promise<void>): CopyWriter {
  return async (tx) => {
    if (await settled(tx, table, key)) return;
    if (row === null || row === undefined) await tx.put('meta', { key: goneKey(table, key as never), value: true });
    else await tx.put(table, row as never);
    await also?.(tx);
  };
}

function listWriter(list: ForkList, value: unknown, also?: (tx: QueryTx) => Promise<void>): CopyWriter {
  return async (tx) => {
    if ((await tx.get('meta', listKey(list))) !== undefined) return;
    await also?.(tx);
    await tx.put('meta', { key: listKey(list), value });
  };
}

/** A zero amount is no row (the chain's ValueQuery). */
const amountRow = (key: string, amount: bigint) => (amount === 0n ? null : { key, value: amount });

/** The source's value of a forked `meta` key (keys.ts FORKED_META), as the ledger stores it; null: no row. */
async function metaRow(source: ForkSource, key: string): Promise<{ key: string; value: unknown } | null> {
  const [kind, what, ...rest] = key.split(':');
  const ids = rest.slice(0, 2).map(Number);
  const c = ids[0];
  switch (`${kind}:${what}`) {
    case 'ft:supply':
      return amountRow(key, await source.fungibleSupply(c));
    case 'ft:balance':
      return amountRow(key, await source.fungibleBalance(c, rest[1] as Address));
    case 'ft:allowance':
      return amountRow(key, await source.fungibleAllowance(c, rest[1] as Address, rest[2] as Address));
    case 'rft:pieces': {
      const pieces = await source.refungiblePieces(c, ids[1]);
      return pieces ? { key, value: pieces } : null;
    }
    case 'rft:owned': {
      const owned = await source.refungibleOwned(c, rest[1] as Address);
      return owned.length > 0 ? { key, value: [...owned].sort((a, b) => a - b) } : null;
    }
    case 'rft:allowance':
      return amountRow(key, await source.pieceAllowance(c, ids[1], rest[2] as Address, rest[3] as Address));
  }
  throw new ForkSourceError('unsupported', `A fork does not copy ${key}`, source.origin.source);
}

export async function copyMiss(source: ForkSource, miss: Miss): Promise<CopyWriter> {
  if (miss.list) {
    const list = miss.list;
    switch (list.type) {
      case 'owned':
        return listWriter(list, await source.tokensOfOwner(list.owner, list.collectionId));
      case 'ids':
        return listWriter(list, await source.tokenIdsOfCollection(list.collectionId));
      case 'children':
        return listWriter(list, await source.childrenOf(list.collectionId, list.tokenId));
      case 'allow': {
        const addresses = await source.allowList(list.collectionId);
        return listWriter(list, true, async (tx) => {
          for (const address of addresses) {
            const key = [list.collectionId, address];
            if (!(await settled(tx, 'allowList', key))) await tx.put('allowList', { collectionId: list.collectionId, address });
          }
        });
      }
    }
  }
  const { table, key } = miss;
  switch (table) {
    case 'accounts': {
      const account = await source.account(key as Address);
      return rowWriter(table, key, account && { ...account, address: key as Address });
    }
    case 'collections': {
      const collection = await source.collection(key as number);
      // The source's last token id: ids after it were minted here and are never asked of the source.
      return rowWriter(table, key, collection, collection ? async (tx) => void (await tx.put('meta', { key: mintedKey(collection.id), value: collection.tokensMinted })) : undefined);
    }
    case 'tokens': {
      const [collectionId, tokenId] = key as [number, number];
      return rowWriter(table, key, await source.token(collectionId, tokenId));
    }
    case 'meta':
      return rowWriter(table, key, await metaRow(source, key as string));
    case 'allowList':
      break;
  }
  throw new Error(`A fork copies no rows of ${String(table)} one by one`);
}
