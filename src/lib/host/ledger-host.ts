// LedgerHost: the one object every host (service worker, in-page, Node) keeps. It owns the
// running Ledger and its REST handler, and swaps both when the state under them is replaced
// (import, reset, or another context doing either on a shared database).
import { createHandler, type RestHandler } from '../api/handler';
import type { RequestLimits } from '../limits';
import type { Route } from '../api/route';
import type { BlockMode, ChainConfig } from '../ledger/chain/config';
import { writeGenesis } from '../ledger/chain/genesis';
import { Ledger, type SignatureVerifier } from '../ledger/chain/ledger';
import type { PoolLimits } from '../ledger/chain/pool-limits';
import { META, readMeta } from '../ledger/meta';
import { isRuleSetName, type RuleSetName } from '../ledger/rules';
import { SnapshotError, parseSnapshot, serializeSnapshot, type Dump } from '../ledger/snapshot';
import { TABLES, type QueryTx, type Rows, type Store, type TableName } from '../ledger/store';
import type { BlockRecord } from '../ledger/types';
import type { Head } from '../ledger/chain/block';
import type { RevertTarget } from '../api/routes/dev';
import { ApiError } from '../api/errors';
import { realNetworkOf } from '../ledger/chain/real-networks';
import { HistoryError } from '../ledger/history/errors';
import type { HistoryPolicy } from '../ledger/history/record';
import { findSnapshot, listSnapshots, type Snapshot } from '../ledger/history/snapshots';
import { ForkStore } from '../ledger/fork/fork-store';
import type { ForkOrigin, ForkSource } from '../ledger/fork/source';

export type HostKind = 'service-worker' | 'page' | 'node';

/** Serialises work across every context that shares the store (a Web Lock in browsers). */
export type WriteLock = <T>(fn: () => Promise<T>) => Promise<T>;

export interface ChainSummary {
  network: string;
  rules: RuleSetName;
  genesisHash: string;
  head: { number: number; hash: string };
}

export interface HostStatus extends ChainSummary {
  host: HostKind;
  appVersion: string;
  dbSchemaVersion: number | null;
  blockMode: BlockMode;
  /** Blocks of state history kept (null: every block) and the oldest block that can be read at or reverted to. */
  history: { keepBlocks: number | null; start: number };
  /** A fork: its source, the block, and the reads the source could not pin at it. */
  fork?: ForkOrigin;
  /** Whether `Authorization: Impersonate <address>` signs as that address (a sandbox's dev tool). */
  impersonate: boolean;
}

export interface LedgerHostOptions {
  kind: HostKind;
  store: Store;
  /** Network segment of the base url (`sandbox`); an import of another network is refused. */
  network?: string;
  /** Rule set of a fresh store's genesis. */
  rules?: RuleSetName;
  blockMode?: BlockMode;
  /** Bounds of the waiting pool (size, each account's share); default 8,192 and 64. */
  pool?: Partial<PoolLimits>;
  /** Blocks of state history kept below the head (reads at a block, revert, changes); default all. */
  history?: HistoryPolicy;
  writeLock?: WriteLock;
  /**
   * Other contexts write to the same store (browser tabs and the worker). Before each block the
   * host checks that the stored chain is still the one it opened, so a stale Ledger never
   * writes onto a chain another context imported or reset.
   */
  shared?: boolean;
  now?: () => number;
  randomBytes?: (length: number) => Uint8Array;
  appVersion?: string;
  dbSchemaVersion?: number | null;
  /** Signature check of submitted payloads (the Node host passes a worker pool); default inline. */
  verify?: SignatureVerifier;
  /** Extra routes (dev tools, file uploads); built once per handler, given this host. */
  routes?: (host: LedgerHost) => Route[];
  /** Requests outside the base url this host answers itself (`GET /ipfs/<cid>`); null = not mine. */
  outside?: (request: Request) => Promise<Response> | null;
  /** Body limits of this host's handler (HandlerOptions.limits); default: limits.ts. */
  handlerLimits?: RequestLimits;
  /** Fork this source: the store answers, at the source's block, what it never held (ledger/fork). */
  fork?: ForkSource;
  /**
   * Let `Authorization: Impersonate <address>` sign as that address (default: on in a fork, off
   * otherwise, and switchable). `false` refuses it for this host's life: it cannot be switched on.
   */
  impersonate?: boolean;
  /**
   * Forks started while running (`POST /dev/fork`, the browser hosts): how to reach a source, and
   * how to reach it again when the store holds a fork (a restarted worker, another context's fork).
   */
  forks?: ForkOpener;
}

/** Where a fork started at run time reads its source (src/lib/fork/open.ts wires REST v1). */
export interface ForkOpener {
  /** Find the block (the source's head when none is named) and answer reads there; ForkSourceError, ForkStartError. */
  open(request: { url: string; blockHash?: string }): Promise<ForkSource>;
  /** The source of a fork already stored, without a request. */
  reopen(origin: ForkOrigin): ForkSource;
}

/** The store's own failures (full, locked by another program, a failing disk): not the file's fault, answered as they are. */
const STORE_FAULTS = new Set(['StorageFullError', 'StoreBusyError', 'StorageIoError']);

/** This host forks only at its start (the Node host's --fork). */
export class ForkUnavailableError extends Error {
  override readonly name = 'ForkUnavailableError';
  constructor(message = 'This host starts a fork only when it starts (--fork <base_url>): start another host to fork a network') {
    super(message);
  }
}

/** The stored chain is not the one this Ledger opened: another context replaced it. */
export class LedgerReplacedError extends Error {
  override readonly name = 'LedgerReplacedError';
  constructor() {
    super('The ledger was replaced (imported or reset) while this block was waiting; nothing was written. Try again.');
  }
}

const defaultRandom = (length: number) => crypto.getRandomValues(new Uint8Array(length));
const noLock: WriteLock = (fn) => fn();

function emptyDump(): Dump {
  return Object.fromEntries(TABLES.map((t) => [t, []])) as unknown as Dump;
}

/** The rows of a fresh chain, without touching a store (so a reset is one replaceAll). */
async function genesisDump(options: { rules: RuleSetName; network: string; now: number; entropy: Uint8Array; fork?: ForkOrigin }): Promise<Dump> {
  const rows = emptyDump();
  const recorder = {
    put<N extends TableName>(table: N, row: Rows[N]) {
      (rows[table] as Rows[N][]).push(structuredClone(row));
    },
    async get() {
      return undefined;
    }
  } as unknown as QueryTx;
  await writeGenesis(recorder, options);
  return rows;
}

/** What an import must hold beyond parseSnapshot's shape checks, so the new Ledger opens. */
function checkImportable(dump: Dump, network: string): void {
  const config = dump.meta.find((r) => r.key === META.chainConfig)?.value as Record<string, unknown> | undefined;
  if (!config || typeof config !== 'object') throw new SnapshotError('This ledger export has no chain configuration');
  if (config.network !== network) {
    throw new SnapshotError(`This ledger export is of network "${String(config.network)}"; this host serves "${network}"`);
  }
  if (typeof config.genesisHash !== 'string' || !/^0x[0-9a-f]{64}$/.test(config.genesisHash)) {
    throw new SnapshotError('The chain configuration of this ledger export has no valid genesis hash');
  }
  const real = realNetworkOf(config.genesisHash);
  if (real) {
    throw new SnapshotError(`This ledger export claims the genesis hash of ${real}, a real network: an Opalite ledger has a genesis of its own, so that nothing signed for it is valid on a real network`);
  }
  if (!isRuleSetName(config.rules)) throw new SnapshotError(`The chain configuration of this ledger export names unknown rules "${String(config.rules)}"`);
  const genesis = dump.meta.find((r) => r.key === META.genesisHash)?.value;
  if (genesis !== config.genesisHash) throw new SnapshotError('The genesis hash of this ledger export does not match its chain configuration');
  if (!dump.blocks.some((b) => b && (b as { number?: unknown }).number === 0)) throw new SnapshotError('This ledger export has no genesis block');
}

/** A fork's export holds only what it copied: it opens over the same source and block, and nothing else does. */
function checkSameFork(dump: Dump, origin: ForkOrigin | undefined): void {
  const config = dump.meta.find((r) => r.key === META.chainConfig)?.value as { fork?: Partial<ForkOrigin> } | undefined;
  const fork = config?.fork;
  if (!fork && !origin) return;
  if (fork && origin && fork.source === origin.source && fork.blockHash === origin.blockHash) return;
  if (!origin) throw new SnapshotError(`This ledger export is a fork of ${String(fork?.source)} at block ${String(fork?.blockHash)}: open it on a host forking that source (--fork)`);
  throw new SnapshotError(`This host forks ${origin.source} at block ${origin.blockHash}; this ledger export is ${fork ? `a fork of ${String(fork.source)} at block ${String(fork.blockHash)}` : 'not a fork'}`);
}

interface Running {
  ledger: Ledger;
  handler: RestHandler;
  unsubscribe: () => void;
  /** From now on this Ledger writes no block (it belongs to a replaced chain). */
  retire: () => void;
}

export class LedgerHost {
  readonly kind: HostKind;
  /** The store as given; `store` is it or a fork over it. */
  private readonly baseStore: Store;
  private storeValue: Store;
  private forkSource: ForkSource | undefined;
  private readonly baseLock: WriteLock;
  private readonly options: LedgerHostOptions;
  private running: Running | undefined;
  private blockModeValue: BlockMode;
  /** Swaps run one at a time; requests keep using the previous handler until a swap is done. */
  private swapping: Promise<unknown> = Promise.resolve();
  private readonly blockListeners = new Set<(block: BlockRecord) => void>();
  private readonly replacedListeners = new Set<(summary: ChainSummary) => void>();
  private readonly modeListeners = new Set<(mode: BlockMode) => void>();
  private readonly historyListeners = new Set<(policy: HistoryPolicy) => void>();
  private readonly impersonationListeners = new Set<(enabled: boolean) => void>();
  private historyValue: HistoryPolicy | undefined;
  private closed = false;
  /** Whether custodial impersonation is on (a switch of the Network page and /dev/impersonation). */
  impersonate: boolean;

  private constructor(options: LedgerHostOptions) {
    this.options = options;
    this.kind = options.kind;
    this.baseStore = options.store;
    this.forkSource = options.fork;
    this.storeValue = this.storeOver(options.fork);
    this.impersonate = options.impersonate ?? options.fork !== undefined;
    this.baseLock = options.writeLock ?? noLock;
    this.blockModeValue = options.blockMode ?? { kind: 'instant' };
  }

  /** Open the chain in `store` (writing genesis if it is empty) and build its handler. */
  static async open(options: LedgerHostOptions): Promise<LedgerHost> {
    const host = new LedgerHost(options);
    await host.followStoredFork();
    host.running = await host.start();
    return host;
  }

  /** The store the ledger runs on: the given one, or a fork over it. */
  get store(): Store {
    return this.storeValue;
  }

  /** The source this host forks, if it is a fork. */
  get forkOrigin(): ForkOrigin | undefined {
    return this.forkSource?.origin;
  }

  get ledger(): Ledger {
    return this.current.ledger;
  }

  private get current(): Running {
    if (!this.running) throw new Error('LedgerHost is not open yet');
    return this.running;
  }

  get blockMode(): BlockMode {
    return this.blockModeValue;
  }

  /** Network segment of the base url: the running chain's (a fresh chain takes the option's). */
  get network(): string {
    return this.running?.ledger.config.network ?? this.options.network ?? 'sandbox';
  }

  /** The REST handler of whichever Ledger is current, plus what this host answers outside it. */
  readonly handle = async (request: Request): Promise<Response> => {
    const outside = this.options.outside?.(request);
    return this.stamp(outside ? await outside : await this.current.handler(request));
  };

  onBlock(listener: (block: BlockRecord) => void): () => void {
    this.blockListeners.add(listener);
    return () => this.blockListeners.delete(listener);
  }

  /** After this host imported or reset the ledger (not when it follows another context). */
  onReplaced(listener: (summary: ChainSummary) => void): () => void {
    this.replacedListeners.add(listener);
    return () => this.replacedListeners.delete(listener);
  }

  /** After the block mode was changed through this host (not when following another context). */
  onBlockModeChange(listener: (mode: BlockMode) => void): () => void {
    this.modeListeners.add(listener);
    return () => this.modeListeners.delete(listener);
  }

  async summary(): Promise<ChainSummary> {
    const { config } = this.ledger;
    const head = await this.ledger.head();
    return { network: config.network, rules: config.rules, genesisHash: config.genesisHash, head };
  }

  async status(): Promise<HostStatus> {
    return {
      host: this.kind,
      appVersion: this.options.appVersion ?? 'dev',
      dbSchemaVersion: this.options.dbSchemaVersion ?? null,
      blockMode: this.blockModeValue,
      history: { keepBlocks: this.ledger.history.keepBlocks, start: await this.ledger.historyStart() },
      ...(this.ledger.config.fork ? { fork: this.ledger.config.fork } : {}),
      impersonate: this.impersonate,
      ...(await this.summary())
    };
  }

  /** The whole ledger as one file (one read transaction, so a consistent state). */
  async exportSnapshot(): Promise<{ text: string; filename: string }> {
    const now = (this.options.now ?? Date.now)();
    const tables = await this.store.dump();
    const head = (tables.meta.find((r) => r.key === 'head')?.value as { number?: number } | undefined)?.number ?? 0;
    const genesis = this.ledger.config.genesisHash.slice(2, 10);
    return { text: serializeSnapshot(tables, now), filename: `opalite-${this.network}-${genesis}-block-${head}.json` };
  }

  /**
   * Replace the ledger with an export. A bad or foreign file throws SnapshotError and changes
   * nothing. `beforeReplace` runs once the export is checked, before the ledger is replaced (an
   * archive's files are stored there); when it throws, the ledger is not replaced.
   */
  async importSnapshot(text: string, options: { beforeReplace?: () => Promise<void> } = {}): Promise<ChainSummary> {
    const snapshot = parseSnapshot(text);
    checkImportable(snapshot.tables, this.network);
    // A host that can start forks follows the export (a fork's export forks its source again); the others open only their own fork's.
    if (!this.options.forks) checkSameFork(snapshot.tables, this.forkSource?.origin);
    await options.beforeReplace?.();
    return this.replace(snapshot.tables);
  }

  /**
   * A fresh chain (new genesis hash); `rules` default to the current chain's. A fork starts again
   * from its source's block, or with `leaveFork` becomes a chain of its own (spec rules unless named).
   */
  async reset(rules?: RuleSetName, options: { leaveFork?: boolean } = {}): Promise<ChainSummary> {
    const leaving = options.leaveFork === true && this.ledger.config.fork !== undefined;
    // A host forked at its start keeps reading that source: it cannot become a plain chain.
    if (leaving && !this.options.forks) throw new ForkUnavailableError('This host was started as a fork (--fork): restart it without --fork for a plain sandbox');
    const now = (this.options.now ?? Date.now)();
    const dump = await genesisDump({
      rules: rules ?? (leaving ? 'spec' : this.ledger.config.rules),
      network: this.network,
      now,
      entropy: (this.options.randomBytes ?? defaultRandom)(32),
      // A fork starts again from its source's block: nothing copied is kept.
      fork: leaving ? undefined : this.ledger.config.fork
    });
    return this.replace(dump);
  }

  /**
   * Replace the ledger with a fork of `request`'s source at its block (its head when none): a
   * genesis of its own naming the source, written like a fork's first start (writeGenesis), in one
   * replaceAll. Nothing changes when the source cannot be reached or answers wrong.
   */
  async startFork(request: { url: string; blockHash?: string }): Promise<ChainSummary> {
    if (!this.options.forks) throw new ForkUnavailableError();
    const source = await this.options.forks.open(request);
    const dump = await genesisDump({
      rules: 'unique',
      network: this.network,
      now: (this.options.now ?? Date.now)(),
      entropy: (this.options.randomBytes ?? defaultRandom)(32),
      fork: source.origin
    });
    return this.replace(dump);
  }

  /** Put what waits in this host's pool into a block now. */
  sealBlock(): Promise<BlockRecord | null> {
    return this.ledger.sealBlock();
  }

  /** Seal `count` blocks one after another (empty ones too); the last one. */
  async sealBlocks(count: number): Promise<BlockRecord | null> {
    let last: BlockRecord | null = null;
    for (let i = 0; i < count; i++) last = await this.ledger.sealBlock();
    return last;
  }

  setBalance(address: string, free: bigint): Promise<BlockRecord> {
    return this.ledger.setBalance(address, free);
  }

  /** Switch impersonation; `quiet` when following another context (no announcement). */
  setImpersonation(enabled: boolean, options: { quiet?: boolean } = {}): void {
    if (enabled && this.options.impersonate === false) {
      throw new ApiError('ImpersonationRefusedError', 'Impersonation was refused when this host started (--no-impersonate, or impersonate: false); start it without that to switch it on', undefined, 403);
    }
    this.impersonate = enabled;
    if (!options.quiet) for (const listener of this.impersonationListeners) listener(enabled);
  }

  /** After impersonation was switched through this host. */
  onImpersonationChange(listener: (enabled: boolean) => void): () => void {
    this.impersonationListeners.add(listener);
    return () => this.impersonationListeners.delete(listener);
  }

  /** A snapshot of the head, to revert to later. */
  snapshot(): Promise<Snapshot> {
    return this.ledger.snapshot();
  }

  snapshots(): Promise<Snapshot[]> {
    return this.ledger.read(listSnapshots);
  }

  /** Make the snapshot's (or the named) block the head again (history/revert.ts). */
  async revert(target: RevertTarget): Promise<Head> {
    const block = await this.ledger.read(async (tx) => {
      if ('snapshotId' in target) {
        const snapshot = await findSnapshot(tx, target.snapshotId);
        return { number: snapshot.blockNumber, hash: snapshot.blockHash };
      }
      const found = await tx.blockByHash(target.blockHash);
      if (!found) throw new HistoryError('unknown', `No block with hash ${target.blockHash} in this ledger`);
      return { number: found.number, hash: found.hash };
    });
    return this.ledger.revert(block);
  }

  /** Keep `policy`'s blocks of history from the next block on; `quiet` when following another context. */
  async setHistory(policy: HistoryPolicy, options: { quiet?: boolean } = {}): Promise<{ keepBlocks: number | null; start: number }> {
    this.historyValue = policy;
    this.ledger.setHistory(policy);
    if (!options.quiet) for (const listener of this.historyListeners) listener(policy);
    return { keepBlocks: policy.keepBlocks, start: await this.ledger.historyStart() };
  }

  /** After the history retention was changed through this host. */
  onHistoryChange(listener: (policy: HistoryPolicy) => void): () => void {
    this.historyListeners.add(listener);
    return () => this.historyListeners.delete(listener);
  }

  /** Switch block production; `quiet` when following another context (no announcement). */
  setBlockMode(mode: BlockMode, options: { quiet?: boolean } = {}): void {
    this.blockModeValue = mode;
    this.ledger.setBlockMode(mode);
    if (!options.quiet) for (const listener of this.modeListeners) listener(mode);
  }

  /** Another context replaced the stored chain: open it, if it is not the one running here. */
  reload(): Promise<void> {
    return this.serial(async () => {
      const stored = await this.store.read((tx) => readMeta<string | null>(tx, META.genesisHash, null));
      // The same chain imported again: its rows may differ at the same head, so nothing remembered holds.
      if (stored === this.ledger.config.genesisHash) return this.ledger.forgetReads();
      await this.followStoredFork();
      await this.swap();
    });
  }

  close(): void {
    this.closed = true;
    this.current.unsubscribe();
    this.current.ledger.close();
  }

  // ---- internals ---------------------------------------------------------------------------

  private async replace(dump: Dump): Promise<ChainSummary> {
    return this.serial(async () => {
      await this.baseLock(async () => {
        // Copies of the fork running now must not land in the new chain; a failed replace keeps the fork.
        const fork = this.storeValue instanceof ForkStore ? this.storeValue : null;
        if (fork) fork.retired = true;
        try {
          await this.store.replaceAll(dump);
        } catch (e) {
          if (fork) fork.retired = false;
          // The store's own failure keeps its name (507, 503, 500); anything else is a file the store cannot hold.
          if (e instanceof Error && STORE_FAULTS.has(e.name)) throw e;
          throw new SnapshotError(`This ledger export could not be stored (nothing was changed): ${(e as Error).message}`);
        }
      });
      await this.followStoredFork();
      // The same fork again (a reset): its copies are of the new chain's state too.
      if (this.storeValue instanceof ForkStore) this.storeValue.retired = false;
      await this.swap();
      const summary = await this.summary();
      for (const listener of this.replacedListeners) listener(summary);
      return summary;
    });
  }

  /** A fork over the given store, or the store itself. */
  private storeOver(source: ForkSource | undefined): Store {
    if (!source) return this.baseStore;
    return new ForkStore(this.baseStore, source, { track: this.options.writeLock && this.options.kind === 'node' ? this.options.writeLock : undefined });
  }

  /** A host that starts forks runs on whatever the store holds: a fork over its source, or a chain of its own. */
  private async followStoredFork(): Promise<void> {
    const opener = this.options.forks;
    if (!opener) return;
    const config = await this.baseStore.read((tx) => readMeta<ChainConfig | null>(tx, META.chainConfig, null));
    const stored = config?.fork;
    const current = this.forkSource?.origin;
    if (stored?.source === current?.source && stored?.blockHash === current?.blockHash) return;
    this.forkSource = stored ? opener.reopen(stored) : undefined;
    this.storeValue = this.storeOver(this.forkSource);
    this.impersonate = this.options.impersonate ?? this.forkSource !== undefined;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.swapping.then(fn, fn);
    this.swapping = next.catch(() => {});
    return next;
  }

  private async swap(): Promise<void> {
    const previous = this.current;
    const next = await this.start();
    this.running = next;
    previous.unsubscribe();
    // Whatever still waits in the old pool (manual or interval blocks) was meant for the old
    // chain: closing refuses every waiting submitter instead of leaving them hanging.
    previous.retire();
    // Their status answers Dropped on the new ledger, not "no such extrinsic" (a client polls it).
    next.ledger.rememberDropped(previous.ledger.close(), previous.ledger);
  }

  private async start(): Promise<Running> {
    let genesis: string | null = null;
    let retired = false;
    const lock: WriteLock = (fn) =>
      this.baseLock(async () => {
        if (retired) throw new LedgerReplacedError();
        return fn();
      });
    const ledger = await Ledger.open({
      store: this.store,
      rules: this.options.rules,
      network: this.network,
      blockMode: this.blockModeValue,
      now: this.options.now,
      randomBytes: this.options.randomBytes,
      writeLock: lock,
      // In the write's own transaction (no read of its own before each write).
      beforeWrite: this.options.shared ? (tx) => this.checkGenesis(tx, genesis) : undefined,
      soleWriter: !this.options.shared,
      verify: this.options.verify,
      pool: this.options.pool,
      history: this.historyValue ?? this.options.history,
      fork: this.forkSource?.origin
    });
    genesis = ledger.config.genesisHash;
    if (this.closed) ledger.close();
    const routes = this.options.routes?.(this) ?? [];
    const handler = createHandler({
      ledger,
      extraRoutes: routes,
      limits: this.options.handlerLimits,
      browserRequests: this.kind !== 'node',
      // A browser's own sandbox answers on the page's origin; a Node host only to this machine.
      impersonation: { enabled: () => this.impersonate, anyHost: this.kind !== 'node' }
    });
    const unsubscribe = ledger.onBlock((block) => {
      for (const listener of this.blockListeners) listener(block);
    });
    return { ledger, handler, unsubscribe, retire: () => (retired = true) };
  }

  /** Inside a write under the lock: is the stored chain still `genesis`? If not, follow it and refuse. */
  private async checkGenesis(tx: QueryTx, genesis: string | null): Promise<void> {
    if (genesis === null) return; // the Ledger opening: it writes genesis or reads the stored chain
    const stored = await readMeta<string | null>(tx, META.genesisHash, null);
    if (stored === genesis) return;
    // After this lock is released: open whatever chain is stored now.
    setTimeout(() => void this.reload().catch(() => {}), 0);
    throw new LedgerReplacedError();
  }

  /** Name the host on every answer (for people and tests reading the network panel). */
  private stamp(response: Response): Response {
    try {
      response.headers.set('x-opalite-host', this.kind);
      return response;
    } catch {
      const headers = new Headers(response.headers);
      headers.set('x-opalite-host', this.kind);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  }
}
