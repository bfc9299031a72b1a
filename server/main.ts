// `npm run serve`: the REST API at http://127.0.0.1:$PORT/sandbox/v1 on a fresh ledger, or on one
// kept in an SQLite database (`--data ledger.db` or OPALITE_DATA). Stops cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { blockModeFromName, blockModeProblem, type BlockMode } from '../src/lib/ledger/chain/config';
import { PoolLimitsError, resolvePoolLimits, type PoolLimits } from '../src/lib/ledger/chain/pool-limits';
import { DEFAULT_POOL_PER_ACCOUNT, DEFAULT_POOL_SIZE, POOL_SIZE_CAP } from '../src/lib/ledger/constants';
import { isRuleSetName } from '../src/lib/ledger/rules';
import { startHost, type HostOptions } from './host';

// The installed package's CLI runs this same file as `opalite serve` and says so here.
const USAGE = `Usage: ${process.env.OPALITE_COMMAND ?? 'npm run serve --'} [options]
  --port <n>            port (default $PORT or 3000)
  --host <address>      address to listen on (default 127.0.0.1)
  --data <file>         keep the ledger in this SQLite database (created if missing; default: a temporary one)
  --rules spec|unique   rule set of a new ledger (default spec)
  --blocks <mode>       instant (default), manual or interval:<ms>
  --pool-size <n>       extrinsics that may wait for a block, in all (default ${DEFAULT_POOL_SIZE}, at most ${POOL_SIZE_CAP})
  --pool-per-account <n>
                        each account's guaranteed share of the pool (default ${DEFAULT_POOL_PER_ACCOUNT}, at most --pool-size);
                        beyond it an account's extrinsics wait only while the pool is less than half
                        full, and are answered 429 with Retry-After otherwise
  --history <blocks>    blocks of state history kept below the head, for reads at a block (at=<hash>),
                        /dev/revert and /extrinsic/changes (default: every block; 0 keeps none)
  --cors <origins>      origins whose pages may call this host, comma-separated, ":*" = any port,
                        or "*" for every origin (default: http://127.0.0.1:*, http://localhost:*, http://[::1]:*)
  --allow-host <names>  Host names answered beyond the bound address and localhost (comma-separated, or "*")
  --max-upload <bytes>  largest uploaded file or ledger import (default 20971520)
  --verify-threads <n>  signature-check threads (default: one per core; 0 = on the main thread)
  --fork <base_url>     fork a REST v1 service (the real Unique one or another Opalite host, …/v1): state is
                        the source's at the fork block, copied on first read; writes stay here; rules
                        default to unique (a database holding a fork opens as that fork again)
  --fork-block <hash>   the source's block to fork at (default: its head, pinned at start)
  --impersonate         let "Authorization: Impersonate <address>" sign as that address (on by default in a fork)
  --no-impersonate      refuse impersonation (also in a fork)`;

/** A mistake in how the host was started: printed without a stack, exit code 2. */
class UsageError extends Error {}

/** Errors that explain themselves (a data file the host will not open): no stack trace. */
const EXPLAINED = new Set(['LedgerFileError', 'LedgerStartError', 'SnapshotError', 'ForkStartError', 'ForkSourceError']);
/** Bad values of --cors and --allow-host, found when the host starts: usage errors too. */
const BAD_OPTION = new Set(['OriginListError', 'HostListError']);

function blockModeOf(text: string | undefined): BlockMode {
  if (!text) return { kind: 'instant' };
  const mode = blockModeFromName(text);
  const problem = mode ? blockModeProblem(mode) : 'must be instant, manual or interval:<ms>';
  if (problem) throw new UsageError(`--blocks ${problem}, not "${text.slice(0, 40)}"`);
  return mode!;
}

function wholeNumber(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${name} must be a whole number of at least ${min}, not "${text}"`);
  return Number(text);
}

/** --pool-size and --pool-per-account, checked together (the share may not exceed the size). */
function poolLimitsOf(size: string | undefined, perAccount: string | undefined): Partial<PoolLimits> {
  const limits = { size: wholeNumber('pool-size', size, 1), perAccount: wholeNumber('pool-per-account', perAccount, 1) };
  try {
    return resolvePoolLimits(limits, { size: '--pool-size', perAccount: '--pool-per-account' });
  } catch (e) {
    throw e instanceof PoolLimitsError ? new UsageError(e.message) : e;
  }
}

function fail(error: unknown): never {
  if (error instanceof UsageError || (error instanceof Error && BAD_OPTION.has(error.name))) {
    console.error(`opalite: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (EXPLAINED.has(name)) console.error(`opalite: ${(error as Error).message}`);
  else if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') console.error(`opalite: cannot listen: ${(error as Error).message}`);
  else console.error('opalite: could not start:', error);
  process.exit(1);
}

/** The host's options from the command line and environment. */
function optionsOf(): HostOptions {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        rules: { type: 'string' },
        blocks: { type: 'string' },
        'pool-size': { type: 'string' },
        'pool-per-account': { type: 'string' },
        history: { type: 'string' },
        cors: { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        'max-upload': { type: 'string' },
        'verify-threads': { type: 'string' },
        fork: { type: 'string' },
        'fork-block': { type: 'string' },
        impersonate: { type: 'boolean' },
        'no-impersonate': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' }
      }
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const fork = values.fork ?? process.env.OPALITE_FORK;
  if (values['fork-block'] !== undefined && fork === undefined) throw new UsageError('--fork-block names a block of the source given with --fork');
  if (values['fork-block'] !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(values['fork-block'])) throw new UsageError(`--fork-block must be a block hash (0x and 64 hex digits), not "${values['fork-block'].slice(0, 80)}"`);
  if (values.impersonate && values['no-impersonate']) throw new UsageError('--impersonate and --no-impersonate contradict each other');
  // A fork follows the real chain's rules unless told otherwise.
  const rules = values.rules ?? process.env.OPALITE_RULES ?? (fork ? 'unique' : 'spec');
  if (!isRuleSetName(rules)) throw new UsageError(`--rules must be "spec" or "unique", not "${rules}"`);
  return {
    port: wholeNumber('port', values.port ?? process.env.PORT, 0) ?? 3000,
    host: values.host,
    dataFile: values.data ?? process.env.OPALITE_DATA,
    rules,
    blockMode: blockModeOf(values.blocks ?? process.env.OPALITE_BLOCKS),
    pool: poolLimitsOf(values['pool-size'], values['pool-per-account']),
    historyBlocks: wholeNumber('history', values.history ?? process.env.OPALITE_HISTORY, 0),
    cors: values.cors ?? process.env.OPALITE_CORS,
    allowHosts: values['allow-host'],
    maxUploadBytes: wholeNumber('max-upload', values['max-upload'], 1),
    verifyThreads: wholeNumber('verify-threads', values['verify-threads'], 0),
    fork: fork === undefined ? undefined : { url: fork, blockHash: values['fork-block'] },
    impersonate: values.impersonate ? true : values['no-impersonate'] ? false : undefined
  };
}

// A stray error must not take every client's requests down with it. The ledger's state is only
// ever changed inside one SQLite transaction per block, so an error outside one leaves nothing
// half-done in memory: log it and keep serving.
process.on('unhandledRejection', (reason) => console.error('opalite: unhandled rejection (still serving):', reason));
process.on('uncaughtException', (error) => console.error('opalite: uncaught exception (still serving):', error));

let options: HostOptions;
try {
  options = optionsOf();
} catch (e) {
  fail(e);
}
const host = await startHost(options).catch(fail);
for (const note of host.notes) console.log(note);
const temporary = options.dataFile === undefined ? ' (temporary: deleted at stop; keep one with --data <file>)' : '';
console.log(`Ledger database: ${host.store.path}${temporary}`);
console.log(`Opalite REST API (${host.ledger.config.rules} rules, ${host.ledger.blockMode.kind} blocks) at ${host.url}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping (finishing requests and blocks in flight)`);
    host.stop().then(
      () => process.exit(0),
      (error) => {
        console.error('opalite: error while stopping:', error);
        process.exit(1);
      }
    );
  });
}
