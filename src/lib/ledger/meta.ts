// Chain-wide values kept in the `meta` table (counters, genesis, configuration).
import type { StateTx } from './store';

export async function readMeta<T>(state: StateTx, key: string, fallback: T): Promise<T> {
  const row = await state.get('meta', key);
  return row === undefined ? fallback : (row.value as T);
}

export async function writeMeta(state: StateTx, key: string, value: unknown): Promise<void> {
  await state.put('meta', { key, value });
}

export const META = {
  genesisHash: 'genesisHash',
  chainConfig: 'chainConfig',
  createdCollectionCount: 'createdCollectionCount',
  destroyedCollectionCount: 'destroyedCollectionCount'
} as const;

/** Key of the last block in which a sponsor paid for `what` (bookkeeping of sponsor timeouts). */
export function sponsoredAtKey(collectionId: number, what: string): string {
  return `sponsoredAt:${collectionId}:${what}`;
}
