// Which source a host forks, from what it was asked and what its store already holds: a new fork
// finds its block at the source; a fork opened again reads its source and block from its own chain
// configuration (no request at start, so a restart works with the source offline).
import type { ChainConfig } from '../ledger/chain/config';
import { ForkSourceError } from '../ledger/fork/source';
import { PoliteFetch, type PoliteFetchOptions } from './polite-fetch';
import { forkBaseUrl, openRestSource, RestForkSource } from './rest-source';
import type { ForkOpener } from '../host/ledger-host';

export interface ForkRequest {
  /** The source's REST base url (`…/v1`). */
  url: string;
  /** The source's block; its head when absent. */
  blockHash?: string;
}

/** Why a host will not fork as asked: printed as it is, the host does not start. */
export class ForkStartError extends Error {
  override readonly name = 'ForkStartError';
}

export async function forkSourceFor(stored: ChainConfig | null, request: ForkRequest | undefined, options: PoliteFetchOptions = {}): Promise<RestForkSource | null> {
  if (stored?.fork) {
    const origin = stored.fork;
    if (request) {
      const url = forkBaseUrl(request.url);
      if (url !== origin.source) throw new ForkStartError(`This ledger is a fork of ${origin.source}, not of ${url}: fork into a new database`);
      if (request.blockHash && request.blockHash.toLowerCase() !== origin.blockHash) {
        throw new ForkStartError(`This ledger forks ${origin.source} at block ${origin.blockHash}, not ${request.blockHash}: fork into a new database`);
      }
    }
    return new RestForkSource(new PoliteFetch(origin.source, options), origin);
  }
  if (!request) return null;
  if (stored) throw new ForkStartError(`This ledger database holds a chain of its own (genesis ${stored.genesisHash}), not a fork: fork into a new database`);
  const source = await openRestSource(request.url, { ...options, blockHash: request.blockHash });
  return source;
}

/** A fork of this very host would read its own answers: refused. */
export function refuseForkOfItself(url: string, own: { hosts: readonly string[]; port: number; path: string }): void {
  let source: URL;
  try {
    source = new URL(url);
  } catch {
    throw new ForkSourceError('invalid', `The fork's source must be a url, not "${url.slice(0, 80)}"`, url.slice(0, 80));
  }
  const port = Number(source.port || (source.protocol === 'https:' ? 443 : 80));
  if (own.port !== 0 && port === own.port && own.hosts.includes(source.hostname) && source.pathname.startsWith(own.path)) {
    throw new ForkStartError(`Refusing to fork ${url}: it is this host itself`);
  }
}

/**
 * Forks a browser host starts while running (POST /dev/fork) over REST v1; `own` is the host's
 * own API (the page's origin and /sandbox), which it refuses to fork.
 */
export function restForkOpener(own: { hosts: readonly string[]; port: number; path: string }, options: PoliteFetchOptions = {}): ForkOpener {
  return {
    async open(request) {
      refuseForkOfItself(request.url, own);
      return openRestSource(request.url, { ...options, blockHash: request.blockHash });
    },
    reopen: (origin) => new RestForkSource(new PoliteFetch(origin.source, options), origin)
  };
}
