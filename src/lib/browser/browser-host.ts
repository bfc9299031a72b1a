// The ledger host of a browser context (the service worker or a page): the shared LedgerHost on
// the browser's IndexedDB, writing under the origin-wide Web Lock, announcing blocks on the
// ledger channel and following what other contexts announce there.
import { devRoutes } from '../api/routes/dev';
import { fileServer, ipfsRoutes } from '../api/routes/ipfs';
import { drawThumbnail } from './thumbnail';
import { LedgerHost, type HostKind, type WriteLock } from '../host/ledger-host';
import { DB_SCHEMA_VERSION, DEFAULT_DB_NAME } from '../storage/schema';
import { openDexieStore } from '../storage/dexie-store';
import { openHostSettings } from './host-settings';
import { NETWORK } from '../client/sandbox-paths';
import { restForkOpener } from '../fork/open';
import { LEDGER_CHANNEL, PROTOCOL_VERSION, WRITER_LOCK, readChannelMessage, type ChannelMessage } from './protocol';

export interface BrowserHostOptions {
  kind: Exclude<HostKind, 'node'>;
  appVersion: string;
  /** Database name (tests of several ledgers use their own). */
  dbName?: string;
  /** The database connection closed under the host (deleted, or upgraded by a newer build). */
  onClosed?: () => void;
}

export interface BrowserHost {
  host: LedgerHost;
  close(): void;
}

/** This context's own API (its origin's /sandbox), which a fork must not read from. */
function ownApi(): { hosts: string[]; port: number; path: string } {
  const here = new URL(globalThis.location?.href ?? 'http://localhost/');
  return { hosts: [here.hostname], port: Number(here.port || (here.protocol === 'https:' ? 443 : 80)), path: `/${NETWORK}` };
}

/** The origin-wide writer lock; without Web Locks (very old browsers) writes are serialised per context only. */
export function webLock(name: string = WRITER_LOCK): WriteLock | undefined {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (!locks) return undefined;
  return <T>(fn: () => Promise<T>) => locks.request(name, { mode: 'exclusive' }, () => fn()) as Promise<T>;
}

export async function openBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const dbName = options.dbName ?? DEFAULT_DB_NAME;
  const store = await openDexieStore({ name: dbName });
  // Closed by the browser (site data cleared), or about to be closed for a newer build's upgrade.
  store.db.on('close', () => options.onClosed?.());
  store.db.on('versionchange', () => void options.onClosed?.());
  // The block mode outlives this context: the worker is stopped when idle and starts afresh.
  const settings = openHostSettings(dbName);
  // Another ledger on the same origin (the sandbox worker's) has its own lock and channel, so its
  // blocks and block mode never reach this one's contexts.
  const suffix = dbName === DEFAULT_DB_NAME ? '' : `:${dbName}`;
  const host = await LedgerHost.open({
    kind: options.kind,
    store,
    blockMode: await settings.blockMode(),
    history: await settings.history(),
    network: NETWORK,
    shared: true,
    writeLock: webLock(`${WRITER_LOCK}${suffix}`),
    // "Start a sandbox from a network": /dev/fork, and a stored fork reopened over its source.
    forks: restForkOpener(ownApi()),
    appVersion: options.appVersion,
    dbSchemaVersion: DB_SCHEMA_VERSION,
    routes: (h) => [...devRoutes(h, { files: store.files }), ...ipfsRoutes({ files: store.files })],
    outside: fileServer(store.files, { thumbnails: drawThumbnail })
  });

  // BroadcastChannel never delivers a message to the object that posted it, so one object both
  // announces and listens without hearing itself.
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`${LEDGER_CHANNEL}${suffix}`) : null;
  const post = (message: ChannelMessage) => channel?.postMessage(message);
  const stops = [
    host.onBlock((b) => post({ v: PROTOCOL_VERSION, type: 'block', number: b.number, hash: b.hash, extrinsics: b.extrinsics.length })),
    host.onReplaced((s) => {
      // The switch as the new chain has it (kept by a reset, a fork's default after a fork).
      void settings.setImpersonation({ genesisHash: s.genesisHash, enabled: host.impersonate });
      post({ v: PROTOCOL_VERSION, type: 'replaced', genesisHash: s.genesisHash, number: s.head.number, hash: s.head.hash });
    }),
    host.onBlockModeChange((mode) => {
      void settings.setBlockMode(mode);
      post({ v: PROTOCOL_VERSION, type: 'block-mode', mode });
    }),
    host.onHistoryChange((policy) => {
      void settings.setHistory(policy);
      post({ v: PROTOCOL_VERSION, type: 'history', keepBlocks: policy.keepBlocks });
    }),
    host.onImpersonationChange((enabled) => {
      const genesisHash = host.ledger.config.genesisHash;
      void settings.setImpersonation({ genesisHash, enabled });
      post({ v: PROTOCOL_VERSION, type: 'impersonation', genesisHash, enabled });
    })
  ];
  // The switch of this chain as a context left it (a new chain starts with its default: on in a fork).
  const switched = await settings.impersonation();
  if (switched?.genesisHash === host.ledger.config.genesisHash) host.setImpersonation(switched.enabled, { quiet: true });
  channel?.addEventListener('message', (event) => {
    const message = readChannelMessage(event.data);
    // Another context imported or reset the ledger: open the chain now stored.
    if (message?.type === 'replaced') void host.reload().catch((e) => console.error('[opalite] could not follow the replaced ledger', e));
    // Block production is one setting for the whole origin.
    if (message?.type === 'block-mode') host.setBlockMode(message.mode, { quiet: true });
    if (message?.type === 'history') void host.setHistory({ keepBlocks: message.keepBlocks }, { quiet: true });
    if (message?.type === 'impersonation' && message.genesisHash === host.ledger.config.genesisHash) host.setImpersonation(message.enabled, { quiet: true });
  });

  return {
    host,
    close() {
      for (const stop of stops) stop();
      channel?.close();
      host.close();
      store.close();
      settings.close();
    }
  };
}
