// Names and messages shared by the service worker, the pages and the in-page host. Every message
// carries the protocol version `v`; a message of another version is ignored, never guessed at.
import type { BlockMode } from '../ledger/chain/config';

export const PROTOCOL_VERSION = 1;

/** New blocks, replaced ledgers and block-mode changes, for every open page and host. */
export const LEDGER_CHANNEL = 'opalite-ledger-v1';

/** The Web Lock every writer (the worker and each tab's in-page host) applies blocks under. */
export const WRITER_LOCK = 'opalite-ledger-writer';

// ---- BroadcastChannel -------------------------------------------------------------------------

export interface BlockMessage {
  v: 1;
  type: 'block';
  number: number;
  hash: string;
  /** How many extrinsics the block holds (a user's write when > 0). */
  extrinsics: number;
}

export interface ReplacedMessage {
  v: 1;
  type: 'replaced';
  genesisHash: string;
  number: number;
  hash: string;
}

export interface BlockModeMessage {
  v: 1;
  type: 'block-mode';
  mode: BlockMode;
}

/** The history retention changed (one setting for the whole origin, as the block mode). */
export interface HistoryMessage {
  v: 1;
  type: 'history';
  keepBlocks: number | null;
}

/** Impersonation was switched on or off for the chain `genesisHash` (one setting for the whole origin). */
export interface ImpersonationMessage {
  v: 1;
  type: 'impersonation';
  genesisHash: string;
  enabled: boolean;
}

export type ChannelMessage = BlockMessage | ReplacedMessage | BlockModeMessage | HistoryMessage | ImpersonationMessage;

// ---- page ⇄ worker (postMessage) --------------------------------------------------------------

/** What a page and a worker tell each other about themselves. */
export interface HelloMessage {
  v: number;
  type: 'hello';
  /** The app build (SvelteKit's `version`). */
  appVersion: string;
  /** The IndexedDB schema version the sender opens the ledger database with. */
  dbSchemaVersion: number;
}

/**
 * Sent every few seconds while blocks are not instant: each message keeps the browser from
 * stopping the idle worker, whose pool of waiting extrinsics lives in memory.
 */
export interface KeepAliveMessage {
  v: number;
  type: 'keep-alive';
}

export const KEEP_ALIVE_MS = 20_000;

/** workbox-window's message asking a waiting worker to take over. */
export const SKIP_WAITING = { type: 'SKIP_WAITING' } as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isBlockMode(value: unknown): value is BlockMode {
  if (!isRecord(value)) return false;
  if (value.kind === 'instant' || value.kind === 'manual') return true;
  return value.kind === 'interval' && typeof value.ms === 'number' && value.ms > 0;
}

/** A channel message of this protocol version, or null (other versions and garbage are ignored). */
export function readChannelMessage(data: unknown): ChannelMessage | null {
  if (!isRecord(data) || data.v !== PROTOCOL_VERSION) return null;
  switch (data.type) {
    case 'block':
      return typeof data.number === 'number' && typeof data.hash === 'string'
        ? { v: 1, type: 'block', number: data.number, hash: data.hash, extrinsics: typeof data.extrinsics === 'number' ? data.extrinsics : 0 }
        : null;
    case 'replaced':
      return typeof data.genesisHash === 'string' && typeof data.number === 'number' && typeof data.hash === 'string'
        ? { v: 1, type: 'replaced', genesisHash: data.genesisHash, number: data.number, hash: data.hash }
        : null;
    case 'block-mode':
      return isBlockMode(data.mode) ? { v: 1, type: 'block-mode', mode: data.mode } : null;
    case 'history':
      return data.keepBlocks === null || (Number.isSafeInteger(data.keepBlocks) && (data.keepBlocks as number) >= 0)
        ? { v: 1, type: 'history', keepBlocks: data.keepBlocks as number | null }
        : null;
    case 'impersonation':
      return typeof data.genesisHash === 'string' && typeof data.enabled === 'boolean'
        ? { v: 1, type: 'impersonation', genesisHash: data.genesisHash.slice(0, 66), enabled: data.enabled }
        : null;
    default:
      return null;
  }
}

/** A hello of any version (so a page can say which version it met), or null. */
export function readHello(data: unknown): HelloMessage | null {
  if (!isRecord(data) || data.type !== 'hello' || typeof data.v !== 'number') return null;
  return {
    v: data.v,
    type: 'hello',
    appVersion: typeof data.appVersion === 'string' ? data.appVersion : 'unknown',
    dbSchemaVersion: typeof data.dbSchemaVersion === 'number' ? data.dbSchemaVersion : 0
  };
}

export function hello(appVersion: string, dbSchemaVersion: number): HelloMessage {
  return { v: PROTOCOL_VERSION, type: 'hello', appVersion, dbSchemaVersion };
}

export type Compatibility =
  | { kind: 'same' }
  /** Another protocol: the page must not rely on anything the worker says beyond REST. */
  | { kind: 'protocol'; worker: number; page: number }
  | { kind: 'worker-newer' | 'worker-older' | 'worker-different'; worker: string; page: string };

/** How the page's build compares with the worker's. Builds are named by time, so larger is newer. */
export function compareWithWorker(page: HelloMessage, worker: HelloMessage): Compatibility {
  if (worker.v !== page.v) return { kind: 'protocol', worker: worker.v, page: page.v };
  const versions = { worker: worker.appVersion, page: page.appVersion };
  // A newer schema always means a newer build, whatever the names say.
  if (worker.dbSchemaVersion > page.dbSchemaVersion) return { kind: 'worker-newer', ...versions };
  if (worker.dbSchemaVersion < page.dbSchemaVersion) return { kind: 'worker-older', ...versions };
  if (worker.appVersion === page.appVersion) return { kind: 'same' };
  const [w, p] = [Number(worker.appVersion), Number(page.appVersion)];
  if (Number.isFinite(w) && Number.isFinite(p)) return { kind: w > p ? 'worker-newer' : 'worker-older', ...versions };
  return { kind: 'worker-different', ...versions };
}

/** One sentence for a person, or null when page and worker match. */
export function describeCompatibility(c: Compatibility): string | null {
  switch (c.kind) {
    case 'same':
      return null;
    case 'protocol':
      return `The background service worker speaks protocol version ${c.worker}; this page speaks version ${c.page}. Reload to bring them together.`;
    case 'worker-newer':
      return `A newer version of Opalite (${c.worker}) is running in the background than this page (${c.page}). Reload to use it.`;
    case 'worker-older':
      return `This page (${c.page}) is newer than the Opalite service worker (${c.worker}). The update installs in the background; reload when it is ready.`;
    case 'worker-different':
      return `This page (${c.page}) and the Opalite service worker (${c.worker}) are different builds. Reload to bring them together.`;
  }
}
