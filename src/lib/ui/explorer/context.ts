// What the explorer's words need to know, read for one page: the chain's unit and decimals, the
// names the app knows addresses by, and the collections a change list names (as of its block).
import type { RestClient } from '../../client/client';
import { collectionsAt } from '../../client/explorer';
import { collectionIdsOf, type ExplorerWordsContext } from '../../client/explorer-words';
import { collectionFacts } from '../../client/sign/words';
import type { Change } from '../../client/types';
import { knownAddress } from '../../state/address-book.svelte';
import { connection } from '../../state/connection.svelte';

/** The name the app knows `address` by (an account, a contact, a dev account), or null. */
export const nameOf = (address: string): string | null => knownAddress(address)?.name ?? null;

export async function wordsContext(client: RestClient, changes: readonly Change[] = [], block: { hash: string; parentHash: string } | null = null): Promise<ExplorerWordsContext> {
  const [chain, collections] = await Promise.all([connection.chainOf(client), collectionsAt(client, collectionIdsOf(changes), block)]);
  return {
    native: { unit: chain.token, decimals: chain.decimals },
    nameOf,
    collection: (id) => {
      const c = collections.get(id);
      return c ? collectionFacts(c) : null;
    }
  };
}
