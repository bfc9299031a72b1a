// The Node host: an HTTP server around the REST handler, with a ledger on fake-indexeddb that can
// be kept in a data file between runs.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import type { RestHandler } from '../src/lib/api/handler';
import { devRoutes } from '../src/lib/api/routes/dev';
import { fileServer, ipfsRoutes } from '../src/lib/api/routes/ipfs';
import { LedgerHost } from '../src/lib/host/ledger-host';
import type { BlockMode } from '../src/lib/ledger/chain/config';
import type { Ledger } from '../src/lib/ledger/chain/ledger';
import type { RuleSetName } from '../src/lib/ledger/rules';
import { parseSnapshot, serializeSnapshot } from '../src/lib/ledger/snapshot';
import { openDexieStore } from '../src/lib/storage/dexie-store';
import { DB_SCHEMA_VERSION } from '../src/lib/storage/schema';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, x-sdk-version, accept',
  'access-control-max-age': '600'
};

export interface HostOptions {
  port: number;
  host?: string;
  /** Keep the ledger in this JSON file: loaded at start, written after blocks and at stop. */
  dataFile?: string;
  rules?: RuleSetName;
  blockMode?: BlockMode;
  /** One log line per request (default on). */
  log?: (line: string) => void;
}

export interface RunningHost {
  url: string;
  /** The running ledger (a new one after `/dev/import` or `/dev/reset`). */
  readonly ledger: Ledger;
  host: LedgerHost;
  handler: RestHandler;
  server: Server;
  stop(): Promise<void>;
}

let counter = 0;

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const log = options.log ?? ((line) => console.log(line));
  // A fresh database per host, so several hosts in one process never share state.
  const store = await openDexieStore({ name: `opalite-node-${process.pid}-${++counter}`, indexedDB, IDBKeyRange });
  if (options.dataFile && existsSync(options.dataFile)) {
    await store.replaceAll(parseSnapshot(readFileSync(options.dataFile, 'utf8')).tables);
  }
  // The same host object as the browser's, so /dev/* and /ipfs/* answer here too.
  const host = await LedgerHost.open({
    kind: 'node',
    store,
    rules: options.rules,
    blockMode: options.blockMode,
    dbSchemaVersion: DB_SCHEMA_VERSION,
    routes: (h) => [...devRoutes(h), ...ipfsRoutes({ files: store.files })],
    outside: fileServer(store.files)
  });
  const handler = host.handle;

  let saving: Promise<void> = Promise.resolve();
  let dirty = false;
  const save = () => {
    if (!options.dataFile) return Promise.resolve();
    const file = options.dataFile;
    dirty = false;
    // Write a temporary file and rename it, so a crash never leaves half a ledger.
    saving = saving.then(async () => {
      writeFileSync(`${file}.tmp`, serializeSnapshot(await store.dump(), Date.now()));
      renameSync(`${file}.tmp`, file);
    });
    return saving;
  };
  let timer: ReturnType<typeof setTimeout> | null = null;
  const changed = () => {
    dirty = true;
    timer ??= setTimeout(() => {
      timer = null;
      void save();
    }, 250);
  };
  host.onBlock(changed);
  host.onReplaced(changed);
  if (options.dataFile && !existsSync(options.dataFile)) await save();

  const bind = options.host ?? '127.0.0.1';
  // Hono's Node adapter turns requests into Web Requests lazily and writes string bodies directly.
  const listener = getRequestListener((request) => handler(request), {
    errorHandler: (error) => {
      log(`internal error: ${String(error)}`);
      return new Response(JSON.stringify({ error: { code: 'UN01000', name: 'SdkError', message: 'Internal error' } }), {
        status: 500,
        headers: { 'content-type': 'application/json' }
      });
    }
  });
  const server = createServer((req, res) => {
    const started = performance.now();
    res.on('finish', () => log(`${req.method} ${req.url} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`));
    // Browser apps on other origins (the Opalite UI pointed at this host, the SDK in a page) may call it.
    for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    void listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bind, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${bind}:${port}/${host.ledger.config.network}/v1`;

  return {
    url,
    get ledger() {
      return host.ledger;
    },
    host,
    handler,
    server,
    async stop() {
      if (timer) clearTimeout(timer);
      host.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      if (dirty || options.dataFile) await save();
      await saving;
      store.close();
    }
  };
}
