// The Node host: an HTTP server around the REST handler, with the ledger (and uploaded files) in
// an SQLite database (server/storage), signature checks on worker threads, and the checks of
// guard.ts (Host, Origin, declared body length) in front of the handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { BODY_READER } from '../src/lib/api/body';
import type { RestHandler } from '../src/lib/api/handler';
import { errorResponseFor, validationError } from '../src/lib/api/errors';
import { resolveLimits, type RequestLimits, type ResolvedLimits } from '../src/lib/limits';
import { devRoutes } from '../src/lib/api/routes/dev';
import { fileServer, ipfsRoutes } from '../src/lib/api/routes/ipfs';
import { LedgerHost, type LedgerHostOptions, type WriteLock } from '../src/lib/host/ledger-host';
import type { BlockMode } from '../src/lib/ledger/chain/config';
import type { Ledger } from '../src/lib/ledger/chain/ledger';
import { resolvePoolLimits, type PoolLimits } from '../src/lib/ledger/chain/pool-limits';
import { historyPolicy } from '../src/lib/ledger/history/record';
import type { RuleSetName } from '../src/lib/ledger/rules';
import { hostPolicy } from './allowed-hosts';
import { incomingBodyReader } from './body-reader';
import { answerClientError, finishAfterRequestBody } from './early-answer';
import { guardRequest, type GuardPolicy, type Verdict } from './guard';
import { openLedgerFile } from './ledger-file';
import { LOOPBACK_ORIGINS, originPolicy } from './origins';
import type { SqliteStore } from './storage/sqlite-store';
import { SCHEMA_VERSION } from './storage/sqlite-schema';
import { startVerifyPool, type VerifyPool } from './verify-pool';
// /dev/status names the package's version; esbuild writes it into the bundles (dist/server, dist/pkg).
import { version as PACKAGE_VERSION } from '../package.json';
import type { ChainConfig } from '../src/lib/ledger/chain/config';
import { META, readMeta } from '../src/lib/ledger/meta';
import { forkSourceFor, refuseForkOfItself, type ForkRequest } from '../src/lib/fork/open';
import type { RestForkSource } from '../src/lib/fork/rest-source';
import type { PoliteFetchOptions } from '../src/lib/fork/polite-fetch';

export interface HostOptions {
  port: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** The SQLite ledger database, opened or created; a JSON ledger of earlier versions is imported. Default: a temporary one. */
  dataFile?: string;
  rules?: RuleSetName;
  blockMode?: BlockMode;
  /** Bounds of the waiting pool: `size` in all, each account's guaranteed `perAccount` share (default 8,192 and 64). */
  pool?: Partial<PoolLimits>;
  /** Blocks of state history kept below the head (reads at a block, revert, changes); default every block. */
  historyBlocks?: number;
  /** Origins whose pages may call this host: a comma list (`:*` = any port) or `*`. Default: loopback pages. */
  cors?: string | readonly string[];
  /** Host header names answered beyond the bound address and localhost/127.0.0.1/[::1] (`*` = any). */
  allowHosts?: readonly string[];
  /** Largest uploaded file and ledger import (default limits.ts DEFAULT_MAX_UPLOAD_BYTES). */
  maxUploadBytes?: number;
  /** Signature-check worker threads (default: one per core; 0 = check on the event loop). */
  verifyThreads?: number;
  /** One log line per request (default: stdout, the lines of every 50 ms in one write). */
  log?: (line: string) => void;
  /**
   * Fork a REST v1 service (its base url, `…/v1`) at a block (its head when none): the ledger's
   * state is the source's there, copied on first read (docs/decisions/0012-fork.md). A database
   * that holds a fork opens as that fork again without this.
   */
  fork?: string | ForkRequest;
  /** `Authorization: Impersonate <address>` signs as that address (default: on in a fork, off otherwise). */
  impersonate?: boolean;
  /** The fork's requests to its source (default: 4 at once, 10 s each, 3 retries). */
  forkFetch?: PoliteFetchOptions;
}

export interface RunningHost {
  url: string;
  /** The running ledger (a new one after `/dev/import` or `/dev/reset`). */
  readonly ledger: Ledger;
  host: LedgerHost;
  handler: RestHandler;
  server: Server;
  store: SqliteStore;
  /** What was done with the data file at start (an import), for the start-up log. */
  notes: string[];
  /** Stop accepting, let requests and blocks in flight finish, close the database. */
  stop(): Promise<void>;
}

/** How long a stop waits for requests in flight before closing their connections. */
const STOP_GRACE_MS = 10_000;

/**
 * How long an idle connection stays open (Node's default: 5 s), as Fastify's default. A client
 * reuses a connection until just before the time the host announces; one whose event loop was busy
 * past that (a script signing between requests) then sends on a connection the host just closed,
 * and its request fails (ECONNRESET, or fetch's "other side closed"). Idle connections close at once on stop.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** The ledger's store writes in progress (blocks, imports), so a stop can let them commit. */
function trackedWrites(): { lock: WriteLock; settled(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  return {
    lock: (fn) => {
      const write = fn();
      running.add(write);
      const done = () => running.delete(write);
      write.then(done, done);
      return write;
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    }
  };
}

/**
 * How long request log lines gather before one write to stdout. Flushing every turn of the event
 * loop cost a write (and a wake-up of whoever reads the pipe) per turn: under load a turn answers
 * a request or two, and the log took 10 to 20 µs of the 70 to 90 µs of CPU a small GET costs.
 */
const LOG_FLUSH_MS = 50;

/** The default request log: lines gathered for LOG_FLUSH_MS go to stdout in one write (and at stop). */
function stdoutLog(): { log: (line: string) => void; flush: () => void } {
  let lines: string[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    const text = `${lines.join('\n')}\n`;
    lines = [];
    process.stdout.write(text);
  };
  return {
    log(line) {
      // Unref'd: a pending flush never keeps a stopping process alive (stop() flushes).
      if (lines.push(line) === 1) setTimeout(flush, LOG_FLUSH_MS).unref();
    },
    flush
  };
}

/** A refusal of guard.ts as an answer, built like every other error answer. */
async function refuse(res: ServerResponse, verdict: Extract<Verdict, { kind: 'refuse' }>): Promise<void> {
  const response = errorResponseFor(verdict.error);
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = { ...Object.fromEntries(response.headers), ...verdict.headers, 'content-length': String(body.length), 'x-opalite-host': 'node' };
  // A body may still be on its way: do not read it, close the connection after answering.
  if (verdict.close) headers.connection = 'close';
  res.writeHead(response.status, headers).end(body);
}

/** Errors the Node adapter raises before the handler runs (a malformed request line or Host) are the client's. */
function adapterError(error: unknown): Response {
  if (error instanceof Error && error.name === 'RequestError') return errorResponseFor(validationError(`Bad request: ${error.message}`));
  return errorResponseFor(error);
}

function urlHost(bind: string): string {
  if (bind === '0.0.0.0' || bind === '::') return '127.0.0.1';
  return bind.includes(':') ? `[${bind}]` : bind;
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const defaultLog = options.log ? null : stdoutLog();
  const log = options.log ?? defaultLog!.log;
  const bind = options.host ?? '127.0.0.1';
  const origins = originPolicy(options.cors ?? LOOPBACK_ORIGINS);
  hostPolicy({ bind, port: options.port, allow: options.allowHosts }); // a bad --allow-host refuses before anything opens
  const poolLimits = resolvePoolLimits(options.pool); // so does a bad pool bound
  const history = historyPolicy(options.historyBlocks, 'historyBlocks'); // and a bad retention
  const limits: ResolvedLimits = resolveLimits({ maxUploadBytes: options.maxUploadBytes } satisfies RequestLimits);
  const request: ForkRequest | undefined = typeof options.fork === 'string' ? { url: options.fork } : options.fork;
  if (request) refuseForkOfItself(request.url, { hosts: ['127.0.0.1', 'localhost', '[::1]', urlHost(bind).replace(/^\[|\]$/g, '')], port: options.port, path: '/' });
  const { store, notes } = await openLedgerFile(options.dataFile);
  let fork: RestForkSource | null;
  try {
    const stored = await store.read((tx) => readMeta<ChainConfig | null>(tx, META.chainConfig, null));
    fork = await forkSourceFor(stored, request, options.forkFetch);
  } catch (e) {
    store.close();
    throw e;
  }
  if (fork) notes.push(`Forking ${fork.origin.source} at block ${fork.origin.blockHash}${fork.origin.blockNumber === null ? '' : ` (#${fork.origin.blockNumber})`}: state is copied on first read`);
  const threads = options.verifyThreads;
  const pool: VerifyPool | null = threads === 0 ? null : startVerifyPool({ threads, log });
  const writes = trackedWrites();

  let host: LedgerHost;
  let server: Server;
  try {
    // The same host object as the browser's, so /dev/* and /ipfs/* answer here too.
    // handlerLimits: the handler's body limits (--max-upload for /dev/import and the OpenAPI document),
    // taken once LedgerHostOptions passes them to createHandler.
    const hostOptions: LedgerHostOptions & { handlerLimits?: RequestLimits } = {
      kind: 'node',
      store,
      // A fork follows the real chain's rules unless told otherwise.
      rules: options.rules ?? (fork ? 'unique' : undefined),
      fork: fork ?? undefined,
      impersonate: options.impersonate,
      blockMode: options.blockMode,
      pool: poolLimits,
      history,
      appVersion: PACKAGE_VERSION,
      dbSchemaVersion: SCHEMA_VERSION,
      writeLock: writes.lock,
      verify: pool?.verify,
      handlerLimits: limits,
      routes: (h) => [...devRoutes(h, { files: store.files }), ...ipfsRoutes({ files: store.files, maxBytes: limits.maxUploadBytes })],
      outside: fileServer(store.files)
    };
    host = await LedgerHost.open(hostOptions);
    server = await listen(options.port, bind, createListener(host.handle));
  } catch (e) {
    await pool?.close();
    store.close();
    throw e;
  }

  // Workers load once the host answers, so they do not slow its start (the first check waits for them).
  pool?.warm();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const policy: GuardPolicy = { hosts: hostPolicy({ bind, port, allow: options.allowHosts }), origins, limits };
  const url = `http://${urlHost(bind)}:${port}/${host.ledger.config.network}/v1`;

  function createListener(handle: RestHandler) {
    // The handler reads a body from the socket as it arrives, within its budget (body-reader.ts);
    // an answer given before the body is all read waits for the rest (early-answer.ts).
    const listener = getRequestListener(
      (request, env) => {
        // An HTTP/1 server (createServer below): its bindings are HttpBindings.
        Object.defineProperty(request, BODY_READER, { value: incomingBodyReader((env as HttpBindings).incoming) });
        return handle(request).catch(errorResponseFor);
      },
      { errorHandler: adapterError }
    );
    return (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      res.on('finish', () => log(`${req.method} ${(req.url ?? '').slice(0, 200)} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`));
      if (req.method !== 'GET' && req.method !== 'HEAD') finishAfterRequestBody(req, res);
      const verdict = guardRequest(policy, req);
      if (verdict.kind === 'refuse') return void refuse(res, verdict).catch(() => res.destroy());
      for (const [k, v] of Object.entries(verdict.headers)) res.setHeader(k, v);
      if (verdict.kind === 'options') return void res.writeHead(204).end();
      void listener(req, res);
    };
  }

  let stopping: Promise<void> | null = null;
  return {
    url,
    get ledger() {
      return host.ledger;
    },
    host,
    handler: host.handle,
    server,
    store,
    notes,
    stop() {
      stopping ??= (async () => {
        await closeServer(server, STOP_GRACE_MS);
        host.close();
        await writes.settled(); // a block being written commits before the database closes
        await pool?.close();
        store.close();
        defaultLog?.flush();
      })();
      return stopping;
    }
  };
}

function listen(port: number, bind: string, listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, listener);
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stop accepting; wait for the requests in flight (at most `graceMs`), then close what is left. */
async function closeServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearTimeout(timer);
}
