// `opalite/node`: the Node host as a library. One call starts the REST API on a free port over a
// temporary SQLite ledger and gives back its URL and a stop(). The public types are declared here,
// not imported, so the published node.d.ts names no internal module.
import { blockModeFromName, blockModeProblem } from '../lib/ledger/chain/config';
import { PoolLimitsError, resolvePoolLimits } from '../lib/ledger/chain/pool-limits';
import { historyPolicy } from '../lib/ledger/history/record';
import { isRuleSetName } from '../lib/ledger/rules';
import { startHost as startNodeHost } from '../../server/host';

/** The rule set of a new ledger: the specification's (`spec`) or the real chain's (`unique`). */
export type RuleSet = 'spec' | 'unique';

/** Block production as the command line spells it: `instant`, `manual` or `interval:<ms>`. */
export type BlockModeName = 'instant' | 'manual' | `interval:${number}`;

/** Block production as the `/dev/block-mode` route and `/dev/status` spell it. */
export type BlockMode = { kind: 'instant' } | { kind: 'manual' } | { kind: 'interval'; ms: number };

export interface StartHostOptions {
  /** Port to listen on. Default 0: a free port chosen by the system (read it from `url`). */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Keep the ledger in this SQLite file (created if missing). Default: a temporary file, deleted by stop(). */
  data?: string;
  /** Rule set of a new ledger. Default `spec`. */
  rules?: RuleSet;
  /** Block production. Default `instant` (every extrinsic in its own block at once). */
  blocks?: BlockModeName | BlockMode;
  /** Extrinsics that may wait for a block, in all. Default 8,192 (at most 65,536). */
  poolSize?: number;
  /**
   * Each account's guaranteed share of the pool. Default 64 (at most `poolSize`). Beyond it an
   * account's extrinsics wait only while the pool is less than half full; otherwise the submit is
   * answered 429 with `Retry-After`, so no account keeps others out.
   */
  poolPerAccount?: number;
  /**
   * Blocks of state history kept below the head: reads at a block (`at=<blockHash>`), revert and
   * `/extrinsic/changes` reach that far back. Default every block; 0 keeps none.
   */
  history?: number;
  /** Origins whose web pages may call the host (`:*` = any port, `*` = all). Default: pages on this machine. */
  cors?: string[];
  /** Host header names answered beyond the bound address and localhost (`*` = any). */
  allowHosts?: string[];
  /** Largest uploaded file or ledger import, in bytes. Default 20 MiB. */
  maxUpload?: number;
  /** Signature-check worker threads. Default one per core; 0 checks on the main thread. */
  verifyThreads?: number;
  /** No request log. Default true: a library does not write to its caller's stdout unasked. */
  quiet?: boolean;
  /**
   * Fork a REST v1 service (its base url, `…/v1`: the real Unique one or another Opalite host) at
   * `blockHash` (default: its head, pinned at start). State is the source's there, copied on first
   * read; writes stay here; `rules` default to `unique`.
   */
  fork?: string | { url: string; blockHash?: string };
  /** `Authorization: Impersonate <address>` signs as that address without its key. Default: on in a fork, off otherwise; `false` refuses it for the host's life. */
  impersonate?: boolean;
}

export interface OpaliteHost {
  /** The REST API's base URL, e.g. `http://127.0.0.1:41234/sandbox/v1` (the SDK's `baseUrl`). */
  readonly url: string;
  /** Scheme, address and port, e.g. `http://127.0.0.1:41234` (`/ipfs/<cid>` is answered here). */
  readonly origin: string;
  readonly port: number;
  /** The SQLite file holding the ledger (a temporary one unless `data` was given). */
  readonly dataFile: string;
  /** True when `dataFile` is temporary and stop() deletes it. */
  readonly temporary: boolean;
  /** What was done with `data` at start (a JSON ledger of earlier versions imported), one line each. */
  readonly notes: readonly string[];
  /** Stop accepting, let requests and blocks in flight finish, close (and delete a temporary) database. Safe to call twice. */
  stop(): Promise<void>;
}

/** `instant`, `manual` or `interval:<ms>` as a BlockMode; anything else is a TypeError naming it. */
export function parseBlockMode(mode: BlockModeName | BlockMode): BlockMode {
  if (typeof mode === 'object' && mode !== null) return mode;
  const named = typeof mode === 'string' ? blockModeFromName(mode) : null;
  if (!named) throw new TypeError(`opalite: blocks must be "instant", "manual" or "interval:<ms>", not ${JSON.stringify(mode)?.slice(0, 80)}`);
  return named;
}

/** A block mode a host runs (an interval within its bounds), or a TypeError naming the option. */
function checkedBlockMode(mode: BlockModeName | BlockMode): BlockMode {
  const parsed = parseBlockMode(mode);
  const problem = blockModeProblem(parsed);
  if (problem) throw new TypeError(`opalite: blocks ${problem}, not ${JSON.stringify(mode)?.slice(0, 80)}`);
  return parsed;
}

/** A whole-number option checked (a TypeError naming it, like the others here); undefined stays so. */
function wholeNumberOption(name: string, value: number | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`opalite: ${name} must be a whole number of at least ${min}, not ${JSON.stringify(value)}`);
  return value;
}

/** `poolSize` and `poolPerAccount` checked (a TypeError naming the option, like the others here). */
function poolLimitsOf(options: StartHostOptions) {
  try {
    return resolvePoolLimits({ size: options.poolSize, perAccount: options.poolPerAccount }, { size: 'poolSize', perAccount: 'poolPerAccount' });
  } catch (e) {
    throw e instanceof PoolLimitsError ? new TypeError(`opalite: ${e.message}`) : e;
  }
}

/** `history` checked (a TypeError naming the option). */
function historyBlocksOf(options: StartHostOptions): number | undefined {
  try {
    return historyPolicy(options.history).keepBlocks ?? undefined;
  } catch (e) {
    throw e instanceof RangeError ? new TypeError(`opalite: ${e.message}`) : e;
  }
}

/**
 * Start the Opalite REST API (Unique Network REST v1 against a local ledger) in this process.
 *
 * ```js
 * import { startHost } from 'opalite/node';
 * const host = await startHost();            // a free port, a fresh temporary ledger
 * const res = await fetch(`${host.url}/collections?use=Result`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
 *   body: JSON.stringify({ address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', name: 'Demo', description: 'A demo', tokenPrefix: 'DEMO' })
 * });
 * await host.stop();
 * ```
 *
 * Rejects with a named error when the host cannot start (the port is taken, `data` is not a
 * ledger database, a bad option), having opened nothing.
 */
export async function startHost(options: StartHostOptions = {}): Promise<OpaliteHost> {
  if (options.rules !== undefined && !isRuleSetName(options.rules)) {
    throw new TypeError(`opalite: rules must be "spec" or "unique", not ${JSON.stringify(options.rules)}`);
  }
  const pool = poolLimitsOf(options);
  const historyBlocks = historyBlocksOf(options);
  const running = await startNodeHost({
    port: options.port ?? 0,
    host: options.host,
    dataFile: options.data,
    rules: options.rules,
    blockMode: options.blocks === undefined ? undefined : checkedBlockMode(options.blocks),
    pool,
    historyBlocks,
    cors: options.cors,
    allowHosts: options.allowHosts,
    maxUploadBytes: wholeNumberOption('maxUpload', options.maxUpload, 1),
    verifyThreads: wholeNumberOption('verifyThreads', options.verifyThreads, 0),
    fork: options.fork,
    impersonate: options.impersonate,
    log: options.quiet === false ? undefined : () => {}
  });
  const origin = new URL(running.url).origin;
  return {
    url: running.url,
    origin,
    port: Number(new URL(origin).port),
    dataFile: running.store.path,
    temporary: options.data === undefined,
    notes: [...running.notes],
    stop: () => running.stop()
  };
}
