// Where the explorer's pages are, and whether the service in use has an explorer to show: the
// built-in sandbox does, and so does any Opalite ledger (its chain properties name its rules; a
// real Unique REST service does not), so links to the explorer appear only where they lead somewhere.
import type { SearchTarget } from '../../client/explorer-search';
import { connection } from '../../state/connection.svelte';
import { settings } from '../../state/settings.svelte';

export const explorerHref = {
  /** Blocks from `from` down; the newest when absent. */
  blocks: (from?: number) => (from === undefined ? '/explorer' : `/explorer?from=${from}`),
  block: (numberOrHash: number | string) => `/explorer/block/${numberOrHash}`,
  extrinsic: (hash: string) => `/explorer/extrinsic/${hash}`,
  account: (address: string) => `/explorer/account/${encodeURIComponent(address)}`,
  token: (collectionId: number, tokenId: number) => `/explorer/token/${collectionId}/${tokenId}`,
  search: (query: string) => `/explorer/search?q=${encodeURIComponent(query)}`
};

/** The page a search result leads to (collections and tokens: their own pages). */
export function targetHref(target: SearchTarget): string {
  switch (target.kind) {
    case 'block':
      return explorerHref.block(target.number);
    case 'extrinsic':
      return explorerHref.extrinsic(target.hash);
    case 'account':
      return explorerHref.account(target.address);
    case 'collection':
      return `/collections/${target.collectionId}`;
    case 'token':
      return `/collections/${target.collectionId}/tokens/${target.tokenId}`;
  }
}

/** Whether the service in use is an Opalite ledger, whose explorer the app can show. */
export function explorerAvailable(): boolean {
  return settings.isSandbox || typeof connection.chain?.rules === 'string';
}
