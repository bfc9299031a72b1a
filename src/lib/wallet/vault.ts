// The vault: encrypted keystores at rest in IndexedDB (Dexie), unlocked key pairs in memory only.
//
// - A stored row is `{ address, createdAt, json }` where `json` is the polkadot{.js} keystore,
//   encrypted with the account's password. Nothing else about the key is ever written.
// - `unlock` decrypts into a key pair held in this object; `lock`/`lockAll` drop it and zero its
//   secret key. Nothing unlocked survives a reload.
// - Auto-lock: after `autoLockMs` without activity (`touch()`, `unlock`, `sign`) every key is
//   locked, by an injected timer and also checked against the injected clock before any use of a
//   key (a suspended device may wake up late, after its timers should have fired).
// - Every write is one IndexedDB operation or transaction, done after all validation and crypto:
//   a refused input writes nothing.
import { Dexie, type EntityTable } from '../storage/dexie';
import type { KeyringPair } from '@polkadot/keyring/types';
import { WalletError, WalletLockedError } from './errors';
import type { KeyType, KeystoreJson } from './keystore';

// -- key code, loaded on first use (issue 10: a page that only lists accounts skips ~430 KB of
// polkadot crypto and its WebAssembly). Sync methods need it only once a key is unlocked, and
// unlocking loads it first.
type KeyCode = typeof import('./keystore') & Pick<typeof import('@polkadot/util-crypto'), 'decodeAddress' | 'encodeAddress'> & Pick<typeof import('@polkadot/util'), 'u8aToHex'>;
let keyCode: KeyCode | null = null;
let keyCodeLoading: Promise<KeyCode> | null = null;

function loadKeyCode(): Promise<KeyCode> {
  keyCodeLoading ??= Promise.all([import('./keystore'), import('@polkadot/util-crypto'), import('@polkadot/util')]).then(([keystore, crypto, util]) => {
    keyCode = { ...keystore, decodeAddress: crypto.decodeAddress, encodeAddress: crypto.encodeAddress, u8aToHex: util.u8aToHex };
    return keyCode;
  });
  return keyCodeLoading;
}
// -- end of key code loading

export const DEFAULT_DB_NAME = 'opalite-wallet';
export const DEFAULT_AUTO_LOCK_MS = 5 * 60_000;
// setTimeout fires at once for delays above 2^31 - 1 ms; longer waits are done in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One account as the UI lists it. */
export interface AccountInfo {
  address: string;
  name: string;
  type: KeyType;
  /** When the account was added to this wallet (ms since epoch). */
  createdAt: number;
  isUnlocked: boolean;
}

/** The stored row. `json` is encrypted; the seed phrase and secret key are never stored. */
export interface AccountRow {
  address: string;
  createdAt: number;
  json: KeystoreJson;
}

export type TimerHandle = unknown;

export interface VaultOptions {
  /** IndexedDB database name (default 'opalite-wallet'). */
  dbName?: string;
  /** IndexedDB implementation (fake-indexeddb in Node tests); the global one otherwise. */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** Inactivity after which every key is locked (default 5 minutes; Infinity: never). */
  autoLockMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
}

type WalletDb = Dexie & { accounts: EntityTable<AccountRow, 'address'> };

function openDb(options: VaultOptions): WalletDb {
  const db = new Dexie(options.dbName ?? DEFAULT_DB_NAME, {
    ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
    ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {})
  }) as WalletDb;
  // Schema history: add a version (with an upgrade function when rows change) for every change;
  // never edit a published one.
  db.version(1).stores({ accounts: 'address, createdAt' });
  return db;
}

function defaultSetTimer(fn: () => void, ms: number): TimerHandle {
  const handle = setTimeout(fn, ms) as unknown as { unref?: () => void };
  handle.unref?.(); // Node: an armed auto-lock must not keep the process alive
  return handle;
}

function defaultClearTimer(handle: TimerHandle): void {
  clearTimeout(handle as ReturnType<typeof setTimeout>);
}

const NOT_IN_WALLET = 'This account is not in the wallet';

/** The wallet's form (SS58 prefix 42) of an address given in any SS58 prefix. */
function canonical(address: string, { decodeAddress, encodeAddress, SS58_FORMAT }: KeyCode = keyCode!): string {
  try {
    const key = decodeAddress(address);
    if (key.length === 32) return encodeAddress(key, SS58_FORMAT);
  } catch {
    // fall through
  }
  throw new WalletError(NOT_IN_WALLET);
}

function info(row: AccountRow, isUnlocked: boolean): AccountInfo {
  return {
    address: row.address,
    name: typeof row.json.meta.name === 'string' ? row.json.meta.name : '',
    type: row.json.encoding.content[1],
    createdAt: row.createdAt,
    isUnlocked
  };
}

export class Vault {
  readonly autoLockMs: number;
  readonly #db: WalletDb;
  readonly #now: () => number;
  readonly #setTimer: (fn: () => void, ms: number) => TimerHandle;
  readonly #clearTimer: (handle: TimerHandle) => void;
  readonly #pairs = new Map<string, KeyringPair>();
  readonly #listeners = new Set<() => void>();
  #lastActivity: number;
  #timer: TimerHandle | undefined;

  constructor(options: VaultOptions = {}) {
    const autoLockMs = options.autoLockMs ?? DEFAULT_AUTO_LOCK_MS;
    if (!(autoLockMs > 0)) throw new WalletError('autoLockMs must be a positive number of milliseconds');
    this.autoLockMs = autoLockMs;
    this.#db = openDb(options);
    this.#now = options.now ?? Date.now;
    this.#setTimer = options.setTimer ?? defaultSetTimer;
    this.#clearTimer = options.clearTimer ?? defaultClearTimer;
    this.#lastActivity = this.#now();
  }

  // -- change notification ----------------------------------------------------------------------

  /** Calls `listener` after every change of the account list or of a lock state; returns unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        console.error('wallet listener failed', error);
      }
    }
  }

  // -- accounts -----------------------------------------------------------------------------------

  /** Every account, oldest first. */
  async list(): Promise<AccountInfo[]> {
    this.#expireIfIdle();
    const rows = await this.#db.accounts.orderBy('createdAt').toArray();
    return rows.map((row) => info(row, this.#pairs.has(row.address)));
  }

  /** One account, or undefined when it is not in the wallet. */
  async get(address: string): Promise<AccountInfo | undefined> {
    this.#expireIfIdle();
    let key: string;
    try {
      key = canonical(address, await loadKeyCode());
    } catch {
      return undefined;
    }
    const row = await this.#db.accounts.get(key);
    return row && info(row, this.#pairs.has(key));
  }

  /**
   * Adds a keystore (polkadot{.js} JSON, validated again here). The account stays locked.
   * Same address already there → `WalletError('This account is already in the wallet')`.
   */
  async add(json: KeystoreJson): Promise<AccountInfo> {
    const keystore = (await loadKeyCode()).toKeystoreJson(json);
    const row: AccountRow = { address: keystore.address, createdAt: this.#now(), json: keystore };
    try {
      await this.#db.transaction('rw', this.#db.accounts, async () => {
        if (await this.#db.accounts.get(row.address)) throw new WalletError('This account is already in the wallet');
        await this.#db.accounts.add(row);
      });
    } catch (error) {
      if (error instanceof WalletError) throw error;
      if (error instanceof Dexie.ConstraintError) throw new WalletError('This account is already in the wallet');
      throw error;
    }
    this.#emit();
    return info(row, false);
  }

  /** Creates (or restores) the sr25519 account of a seed phrase; the phrase itself is not kept. */
  async addFromMnemonic(mnemonic: string, name: string, password: string): Promise<AccountInfo> {
    return this.add(await (await loadKeyCode()).createFromMnemonic(mnemonic, name, password, { now: this.#now }));
  }

  /**
   * Imports the text of a polkadot{.js} account file. The password is checked before anything is
   * written, so a file whose password is not known (or whose key is damaged) is refused.
   */
  async importJson(text: string, password: string): Promise<AccountInfo> {
    const { parseKeystoreJson, unlockKeystore } = await loadKeyCode();
    const keystore = parseKeystoreJson(text);
    if (await this.#db.accounts.get(keystore.address)) throw new WalletError('This account is already in the wallet');
    const pair = await unlockKeystore(keystore, password);
    pair.lock();
    return this.add(keystore);
  }

  async rename(address: string, name: string): Promise<AccountInfo> {
    const { renameKeystore } = await loadKeyCode();
    const key = canonical(address);
    const row = await this.#db.transaction('rw', this.#db.accounts, async () => {
      const current = await this.#db.accounts.get(key);
      if (!current) throw new WalletError(NOT_IN_WALLET);
      const updated: AccountRow = { ...current, json: renameKeystore(current.json, name) };
      await this.#db.accounts.put(updated);
      return updated;
    });
    this.#pairs.get(key)?.setMeta({ name: row.json.meta.name });
    this.#emit();
    return info(row, this.#pairs.has(key));
  }

  /** Removes the account (locking it first). Its keystore is gone: export it before if needed. */
  async remove(address: string): Promise<void> {
    const key = canonical(address, await loadKeyCode());
    const wasUnlocked = this.#dropPair(key);
    const removed = await this.#db.transaction('rw', this.#db.accounts, async () => {
      if (!(await this.#db.accounts.get(key))) return false;
      await this.#db.accounts.delete(key);
      return true;
    });
    this.#dropPair(key); // an unlock that finished while the row was being deleted
    if (removed || wasUnlocked) this.#emit();
    if (!removed) throw new WalletError(NOT_IN_WALLET);
  }

  /** Re-encrypts the stored keystore with a new password (at least 8 characters). */
  async changePassword(address: string, oldPassword: string, newPassword: string): Promise<void> {
    const { reencrypt } = await loadKeyCode();
    const key = canonical(address);
    const before = await this.#row(key);
    const json = await reencrypt(before.json, oldPassword, newPassword);
    await this.#db.transaction('rw', this.#db.accounts, async () => {
      const current = await this.#db.accounts.get(key);
      if (!current) throw new WalletError(NOT_IN_WALLET);
      if (current.json.encoded !== before.json.encoded) {
        throw new WalletError('The password of this account was changed meanwhile; try again');
      }
      // Keep a name given meanwhile.
      await this.#db.accounts.put({ ...current, json: { ...json, meta: current.json.meta } });
    });
    this.#emit();
  }

  /** The account's keystore: the polkadot{.js} export format, encrypted with its password. */
  async exportJson(address: string): Promise<KeystoreJson> {
    const { toKeystoreJson } = await loadKeyCode();
    return toKeystoreJson((await this.#row(canonical(address))).json);
  }

  async #row(key: string): Promise<AccountRow> {
    const row = await this.#db.accounts.get(key);
    if (!row) throw new WalletError(NOT_IN_WALLET);
    return row;
  }

  // -- lock state ---------------------------------------------------------------------------------

  /** Decrypts the account's key into memory. Wrong password → `WalletError('Wrong password')`. */
  async unlock(address: string, password: string): Promise<void> {
    const { unlockKeystore } = await loadKeyCode();
    const key = canonical(address);
    const row = await this.#row(key);
    const pair = await unlockKeystore(row.json, password);
    // The account may have been removed or given another password while scrypt ran.
    const current = await this.#db.accounts.get(key);
    if (!current || current.json.encoded !== row.json.encoded) {
      pair.lock();
      throw new WalletError(current ? 'The password of this account was changed meanwhile; try again' : NOT_IN_WALLET);
    }
    this.touch(); // first locks whatever expired while idle, then counts this as activity
    const previous = this.#pairs.get(key);
    if (previous && previous !== pair) previous.lock();
    this.#pairs.set(key, pair);
    this.#arm();
    this.#emit();
  }

  lock(address: string): void {
    if (!keyCode) return; // nothing was ever unlocked
    let key: string;
    try {
      key = canonical(address);
    } catch {
      return;
    }
    if (this.#dropPair(key)) this.#emit();
  }

  lockAll(): void {
    if (this.#pairs.size === 0) return;
    for (const pair of this.#pairs.values()) pair.lock();
    this.#pairs.clear();
    this.#disarm();
    this.#emit();
  }

  isUnlocked(address: string): boolean {
    this.#expireIfIdle();
    if (!keyCode) return false; // nothing was ever unlocked
    try {
      return this.#pairs.has(canonical(address));
    } catch {
      return false;
    }
  }

  /**
   * Signs `message` as given (no hashing, no wrapping) and returns the MultiSignature hex:
   * `0x01` + 64-byte signature for sr25519 (`0x00` + 64 bytes for ed25519). Counts as activity.
   * Locked (or auto-locked) account → `WalletLockedError`.
   */
  sign(address: string, message: Uint8Array): string {
    if (!(message instanceof Uint8Array)) throw new WalletError('The message to sign must be bytes');
    this.#expireIfIdle();
    if (!keyCode) throw new WalletLockedError(address); // nothing was ever unlocked
    const key = canonical(address);
    const pair = this.#pairs.get(key);
    if (!pair) throw new WalletLockedError(key);
    this.touch();
    return keyCode.u8aToHex(pair.sign(message, { withType: true }));
  }

  // -- inactivity ---------------------------------------------------------------------------------

  /** Records user activity: the auto-lock countdown starts again. */
  touch(): void {
    this.#expireIfIdle();
    this.#lastActivity = this.#now();
    this.#arm();
  }

  /** Locks everything, stops the timer and closes the database. */
  close(): void {
    this.lockAll();
    this.#disarm();
    this.#db.close();
  }

  #dropPair(key: string): boolean {
    const pair = this.#pairs.get(key);
    if (!pair) return false;
    pair.lock();
    this.#pairs.delete(key);
    if (this.#pairs.size === 0) this.#disarm();
    return true;
  }

  #expireIfIdle(): void {
    if (this.#pairs.size > 0 && this.#now() - this.#lastActivity >= this.autoLockMs) this.lockAll();
  }

  #arm(): void {
    if (this.#timer !== undefined || this.#pairs.size === 0 || !Number.isFinite(this.autoLockMs)) return;
    const remaining = this.#lastActivity + this.autoLockMs - this.#now();
    this.#timer = this.#setTimer(() => this.#onTimer(), Math.min(Math.max(remaining, 0), MAX_TIMER_MS));
  }

  #disarm(): void {
    if (this.#timer === undefined) return;
    this.#clearTimer(this.#timer);
    this.#timer = undefined;
  }

  #onTimer(): void {
    this.#timer = undefined;
    this.#expireIfIdle();
    this.#arm(); // still unlocked: activity came meanwhile, wait for the rest
  }
}
