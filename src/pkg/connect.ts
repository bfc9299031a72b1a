// `opalite/connect`: a page of any origin reaches the Opalite app's own sandbox, with the owner's
// consent. `connectOpalite()` opens an Opalite window (a popup: first-party, so it sees the very
// ledger the Opalite tab shows; an iframe would get a partitioned, empty one) and talks to it
// over a versioned postMessage channel. The connection's `fetch` reaches the sandbox REST API
// and its files; `accounts()` lists the wallet accounts the person shared with this page, and
// `signPayload`/`signRaw` ask the person to sign with one of them in Opalite's sign dialog. Keys
// never cross: the app signs with its own keys, or gets a signature back. `enableOpalite()` gives
// the same as polkadot{.js} extension's `Injected` (accounts, signer), and `injectOpalite()`
// lists Opalite where `web3Enable()` looks. Protocol: docs/connect.md.
// The public types are declared here, so connect.d.ts names no internal module (and no
// @polkadot package: the extension's shapes are declared, not imported).
import { version as PACKAGE_VERSION } from '../../package.json';
import {
  CONNECT_PAGE_PATH,
  CONNECT_VERSION,
  type ClientMessage,
  type HeaderList,
  type SignFailure
} from '../lib/connect/protocol';

export interface ConnectOptions {
  /** The Opalite app's address, e.g. `https://opalite.example` (only its origin counts). */
  opaliteUrl: string;
  /** How long the Opalite window and the person may take to answer; default 300 000 ms (5 minutes). */
  timeoutMs?: number;
  /** Your app's name, shown to the person beside your origin (as `web3Enable(appName)` takes it). */
  appName?: string;
}

export type ConnectErrorCode =
  /** `opaliteUrl` is not an http(s) URL. */
  | 'invalid-url'
  /** The browser blocked the popup: call `connectOpalite` from a click handler. */
  | 'popup-blocked'
  /** The Opalite window did not answer, or the person did not decide, in time. */
  | 'timeout'
  /** The person denied access. */
  | 'refused'
  /** This page's origin cannot connect: plain http other than localhost, 127.0.0.1 or [::1], or an opaque origin. */
  | 'unsupported-origin'
  /** The Opalite at `opaliteUrl` is older than this call (it lists no accounts, or cannot signRaw): update it. */
  | 'unsupported'
  /** The Opalite window was closed (or the connection was): every call waiting is rejected. */
  | 'closed'
  /** A request carried credentials (`Authorization`, `Cookie`): keys and seeds never go to Opalite. */
  | 'credentials'
  /** A request for somewhere other than the Opalite origin. */
  | 'outside-opalite'
  /** The person cancelled the sign dialog. */
  | 'cancelled'
  /**
   * Opalite refused to sign, before asking the person: the origin is no longer allowed, the
   * account is not one shared with this page, the payload breaks the signing rule (another chain,
   * an extension list other than the chain's, a call with bytes left over), or access ended while
   * the dialog was open.
   */
  | 'sign-refused'
  /** The payload is not a valid signer payload of the sandbox. */
  | 'invalid-payload';

export class OpaliteConnectError extends Error {
  override readonly name = 'OpaliteConnectError';
  constructor(
    readonly code: ConnectErrorCode,
    message: string
  ) {
    super(message);
  }
}

/** polkadot's `SignerPayloadJSON` (what `signPayload` of the polkadot{.js} extension takes). */
export interface SignerPayloadJSON {
  address: string;
  blockHash: string;
  blockNumber: string;
  era: string;
  genesisHash: string;
  method: string;
  nonce: string;
  signedExtensions: string[];
  specVersion: string;
  tip: string;
  transactionVersion: string;
  version: number;
}

/** polkadot's `SignerResult`: the request's id and the MultiSignature (`0x01` + 64 bytes for sr25519). */
export interface SignerResult {
  id: number;
  signature: `0x${string}`;
}

/** polkadot's `SignerPayloadRaw`: Opalite signs `data` (0x hex or text) wrapped as `<Bytes>…</Bytes>`, and only `type: 'bytes'`. */
export interface SignerPayloadRaw {
  address: string;
  data: string;
  type?: 'bytes' | 'payload';
}

/** polkadot{.js} extension's `InjectedAccount`: a wallet account the person shared with this page. */
export interface InjectedAccount {
  address: string;
  name?: string;
  type?: 'sr25519' | 'ed25519' | 'ecdsa' | 'ethereum';
  /** The sandbox's genesis hash: Opalite signs with this account for that chain only. */
  genesisHash?: string | null;
}

/** Stops a subscription. */
export type Unsubcall = () => void;

/** polkadot{.js} extension's `InjectedAccounts`. */
export interface InjectedAccounts {
  /** The accounts shared with this page now (`anyType` is accepted and changes nothing). */
  get(anyType?: boolean): Promise<InjectedAccount[]>;
  /** Calls `cb` with the accounts now, then with the whole list at every change; returns the stop. */
  subscribe(cb: (accounts: InjectedAccount[]) => void | Promise<void>): Unsubcall;
}

/** The signer `@polkadot/api` takes (`signAndSend(address, { signer })`): Opalite's sign dialog. */
export interface InjectedSigner {
  signPayload(payload: SignerPayloadJSON): Promise<SignerResult>;
  signRaw(raw: SignerPayloadRaw): Promise<SignerResult>;
}

/** polkadot{.js} extension's `InjectedExtension` (`Injected` with its name and version), backed by an Opalite connection. */
export interface InjectedOpalite {
  readonly name: 'opalite';
  readonly version: string;
  readonly accounts: InjectedAccounts;
  readonly signer: InjectedSigner;
  /** The connection underneath: `fetch` and `baseUrl` for the sandbox REST API, `close()`. */
  readonly connection: OpaliteConnection;
}

/** `open` while Opalite relays; `revoked` once the owner revoked this origin (requests answer 403); `closed` at the end. */
export type ConnectionState = 'open' | 'revoked' | 'closed';

export interface OpaliteConnection {
  /** The Opalite app's origin. */
  readonly origin: string;
  /** The sandbox REST API, `<origin>/sandbox/v1`: for `new Sdk({ baseUrl, axiosConfig: { adapter: 'fetch', env: { fetch } } })`. */
  readonly baseUrl: string;
  readonly state: ConnectionState;
  /**
   * `fetch` for the sandbox: a path (`/sandbox/v1/collections?…`, `/ipfs/<cid>`) or a URL on the
   * Opalite origin. Resolves to a real Response (the API's error envelope for a refusal: 403 before
   * consent, after revocation, or for a path outside the sandbox API); rejects with an
   * OpaliteConnectError when the request cannot be sent. Standalone: pass it around unbound.
   */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /**
   * The wallet accounts the person shared with this page (none until they share one; the person
   * can change them in the Opalite window or on its Network page). Empty once access is revoked.
   */
  accounts(): Promise<InjectedAccount[]>;
  /** Calls `callback` with the shared accounts now, then with the whole list at every change; returns the stop. */
  subscribeAccounts(callback: (accounts: InjectedAccount[]) => void): Unsubcall;
  /** Opens Opalite's sign dialog for `payload` (signed by a shared account); the person unlocks their key and decides. */
  signPayload(payload: SignerPayloadJSON): Promise<SignerResult>;
  /** Opens Opalite's sign dialog for a message: signs `<Bytes>data</Bytes>` with a shared account. */
  signRaw(raw: SignerPayloadRaw): Promise<SignerResult>;
  /** Ends the connection and closes the Opalite window; calls still waiting reject with `closed`. */
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 300_000;
const POPUP_FEATURES = 'popup,width=520,height=760';
/** How often the window is checked for being closed (a closed popup sends no event). */
const CLOSED_POLL_MS = 250;
const SIGN_ERRORS: Record<SignFailure, ConnectErrorCode> = { cancelled: 'cancelled', refused: 'sign-refused', invalid: 'invalid-payload' };
/** Bounds what a message from Opalite may make this page hold. */
const MAX_ACCOUNTS = 1000;
const MAX_ACCOUNT_TEXT = 256;
const KEY_TYPES: readonly string[] = ['sr25519', 'ed25519', 'ecdsa', 'ethereum'];

function opaliteOrigin(opaliteUrl: string): string {
  let url: URL;
  try {
    url = new URL(opaliteUrl);
  } catch {
    throw new OpaliteConnectError('invalid-url', `opaliteUrl must be the Opalite app's address, such as https://opalite.example (got ${String(opaliteUrl).slice(0, 120)})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OpaliteConnectError('invalid-url', `opaliteUrl must be an http(s) address, not ${url.protocol}`);
  return url.origin;
}

const closedError = () => new OpaliteConnectError('closed', 'The connection to Opalite is closed: connect again');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isHeaderList(value: unknown): value is HeaderList {
  return Array.isArray(value) && value.every((pair) => Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string');
}

/** The Response of a `response` message; null when the message is malformed. */
function responseOf(message: Record<string, unknown>): Response | null {
  const { status, headers, body } = message;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599 || !isHeaderList(headers)) return null;
  if (body !== null && !(body instanceof ArrayBuffer)) return null;
  try {
    return new Response(body, { status, headers });
  } catch {
    return null; // a body with a status that takes none
  }
}

/** The account list of a `ready` or `accounts` message; null when it is malformed. */
function accountsOf(value: unknown): InjectedAccount[] | null {
  if (!Array.isArray(value) || value.length > MAX_ACCOUNTS) return null;
  const accounts: InjectedAccount[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.address !== 'string' || entry.address.length > MAX_ACCOUNT_TEXT) return null;
    const account: InjectedAccount = { address: entry.address };
    if (typeof entry.name === 'string') account.name = entry.name.slice(0, MAX_ACCOUNT_TEXT);
    if (typeof entry.type === 'string' && KEY_TYPES.includes(entry.type)) account.type = entry.type as InjectedAccount['type'];
    account.genesisHash = typeof entry.genesisHash === 'string' ? entry.genesisHash.slice(0, MAX_ACCOUNT_TEXT) : null;
    accounts.push(account);
  }
  return accounts;
}

const copyOf = (accounts: readonly InjectedAccount[]) => accounts.map((account) => ({ ...account }));

/** A subscriber's failure is reported, and the other subscribers are still told. */
function tell(callback: (accounts: InjectedAccount[]) => void, accounts: readonly InjectedAccount[]): void {
  try {
    callback(copyOf(accounts));
  } catch (error) {
    if (typeof reportError === 'function') reportError(error);
    else console.error(error);
  }
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

class Connection implements OpaliteConnection {
  readonly origin: string;
  baseUrl: string;
  state: ConnectionState = 'open';
  readonly #popup: Window;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #handshake: Waiting | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #appName: string | undefined;
  /** What the Opalite window said it does beyond the first release (`ready.features`). */
  #features = new Set<string>();
  #accounts: InjectedAccount[] = [];
  readonly #accountListeners = new Set<{ callback: (accounts: InjectedAccount[]) => void }>();
  readonly #closedPoll: ReturnType<typeof setInterval>;
  readonly #onMessage = (event: MessageEvent) => this.#receive(event);

  constructor(popup: Window, origin: string, appName?: string) {
    this.#popup = popup;
    this.origin = origin;
    this.#appName = appName;
    this.baseUrl = `${origin}/sandbox/v1`;
    window.addEventListener('message', this.#onMessage);
    this.#closedPoll = setInterval(() => {
      if (this.#popup.closed) this.#end(new OpaliteConnectError('closed', 'The Opalite window was closed'), false);
    }, CLOSED_POLL_MS);
  }

  /** Resolves once the person allowed this origin (at once when allowed before). */
  opened(timeoutMs: number): Promise<this> {
    return new Promise<this>((resolve, reject) => {
      this.#handshake = { resolve: () => resolve(this), reject };
      this.#timer = setTimeout(
        () => this.#end(new OpaliteConnectError('timeout', `Opalite did not answer within ${Math.round(timeoutMs / 1000)} seconds`), true),
        timeoutMs
      );
    });
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    this.#checkOpen();
    const request = input instanceof Request ? new Request(input, init) : new Request(new URL(String(input), `${this.origin}/`), init);
    const url = new URL(request.url);
    if (url.origin !== this.origin) {
      throw new OpaliteConnectError('outside-opalite', `connection.fetch reaches only ${this.origin}: pass a path such as /sandbox/v1/… (got ${url.origin})`);
    }
    if (request.headers.has('authorization') || request.headers.has('cookie')) {
      throw new OpaliteConnectError('credentials', 'Keys and seeds never go to Opalite: sign with your own key (use=Build, then /extrinsic/submit), or call signPayload');
    }
    request.signal.throwIfAborted();
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    const body = hasBody ? await request.arrayBuffer() : null;
    const headers: HeaderList = [];
    request.headers.forEach((value, name) => headers.push([name, value]));
    const message: ClientMessage = { v: CONNECT_VERSION, type: 'request', id: this.#nextId++, method: request.method, path: url.pathname + url.search, headers, body };
    return this.#call<Response>(message, body ? [body] : [], request.signal);
  };

  async accounts(): Promise<InjectedAccount[]> {
    this.#checkOpen();
    this.#checkFeature('accounts', 'list the accounts shared with this page');
    return copyOf(this.#accounts);
  }

  subscribeAccounts(callback: (accounts: InjectedAccount[]) => void): Unsubcall {
    this.#checkOpen();
    this.#checkFeature('accounts', 'list the accounts shared with this page');
    const listener = { callback };
    this.#accountListeners.add(listener);
    // As the extension does: the current list first, after the caller has its stop.
    queueMicrotask(() => {
      if (this.#accountListeners.has(listener)) tell(callback, this.#accounts);
    });
    return () => void this.#accountListeners.delete(listener);
  }

  signPayload(payload: SignerPayloadJSON): Promise<SignerResult> {
    this.#checkOpen();
    const id = this.#nextId++;
    // The person must see the dialog; browsers may ignore this, the Opalite window focuses itself too.
    this.#popup.focus();
    return this.#call<SignerResult>({ v: CONNECT_VERSION, type: 'sign', id, payload }, []);
  }

  async signRaw(raw: SignerPayloadRaw): Promise<SignerResult> {
    this.#checkOpen();
    this.#checkFeature('sign-raw', 'sign a message (signRaw)');
    const id = this.#nextId++;
    this.#popup.focus();
    return this.#call<SignerResult>({ v: CONNECT_VERSION, type: 'sign-raw', id, raw: { address: raw?.address, data: raw?.data, type: raw?.type } }, []);
  }

  close(): void {
    if (this.state === 'closed') return;
    this.#post({ v: CONNECT_VERSION, type: 'bye' });
    this.#end(new OpaliteConnectError('closed', 'The connection was closed'), true);
  }

  #checkOpen(): void {
    if (this.state === 'closed') throw closedError();
  }

  #checkFeature(feature: string, what: string): void {
    if (!this.#features.has(feature)) throw new OpaliteConnectError('unsupported', `The Opalite at ${this.origin} is too old to ${what}: update it`);
  }

  #setAccounts(accounts: InjectedAccount[]): void {
    this.#accounts = accounts;
    for (const listener of [...this.#accountListeners]) tell(listener.callback, accounts);
  }

  #call<T>(message: ClientMessage & { id: number }, transfer: Transferable[], signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // It may have ended while the body was read.
      if (this.state === 'closed') return reject(closedError());
      const id = message.id;
      const onAbort = () => {
        this.#waiting.delete(id);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = <V>(done: (value: V) => void) => (value: V) => {
        signal?.removeEventListener('abort', onAbort);
        this.#waiting.delete(id);
        done(value);
      };
      this.#waiting.set(id, { resolve: settle(resolve as (value: unknown) => void), reject: settle(reject) });
      this.#post(message, transfer);
    });
  }

  #post(message: ClientMessage, transfer: Transferable[] = []): void {
    this.#popup.postMessage(message, { targetOrigin: this.origin, transfer });
  }

  #receive(event: MessageEvent): void {
    // Only Opalite's window, on Opalite's origin, is listened to.
    if (event.source !== this.#popup || event.origin !== this.origin) return;
    const message: unknown = event.data;
    if (!isRecord(message) || message.v !== CONNECT_VERSION) return;
    const waiting = typeof message.id === 'number' ? this.#waiting.get(message.id) : undefined;
    switch (message.type) {
      case 'loaded':
        this.#post(this.#appName === undefined ? { v: CONNECT_VERSION, type: 'hello' } : { v: CONNECT_VERSION, type: 'hello', appName: this.#appName });
        break;
      case 'ready': {
        if (typeof message.apiPath === 'string' && message.apiPath.startsWith('/')) this.baseUrl = `${this.origin}${message.apiPath}`;
        // An older Opalite names no features and sends no accounts.
        if (Array.isArray(message.features)) this.#features = new Set(message.features.filter((feature): feature is string => typeof feature === 'string').slice(0, 32));
        this.#accounts = accountsOf(message.accounts) ?? [];
        this.state = 'open';
        this.#settleHandshake();
        break;
      }
      case 'accounts': {
        const accounts = accountsOf(message.accounts);
        if (accounts && this.state === 'open') this.#setAccounts(accounts);
        break;
      }
      case 'refused': {
        const text = typeof message.message === 'string' ? message.message : 'Opalite refused the connection';
        if (message.reason === 'unsupported-origin') this.#end(new OpaliteConnectError('unsupported-origin', text), true);
        else this.#refused(message.reason === 'revoked', text);
        break;
      }
      case 'response': {
        const response = responseOf(message);
        if (response) waiting?.resolve(response);
        else waiting?.reject(new TypeError('Opalite answered with a malformed response'));
        break;
      }
      case 'signed':
        if (typeof message.signature === 'string' && message.signature.startsWith('0x')) waiting?.resolve({ id: message.id, signature: message.signature } as SignerResult);
        else waiting?.reject(new OpaliteConnectError('invalid-payload', 'Opalite answered without a signature'));
        break;
      case 'sign-failed': {
        const code = SIGN_ERRORS[message.reason as SignFailure] ?? 'sign-refused';
        waiting?.reject(new OpaliteConnectError(code, typeof message.message === 'string' ? message.message : 'Opalite did not sign'));
        break;
      }
      case 'closed':
        // The person disconnected, or went to another page of Opalite in that window: it stays theirs.
        this.#end(new OpaliteConnectError('closed', 'The Opalite window ended the connection'), false);
        break;
    }
  }

  #settleHandshake(): void {
    clearTimeout(this.#timer);
    this.#handshake?.resolve(this);
    this.#handshake = null;
  }

  /** Before consent: the connection fails. Once open: later requests are answered 403 by Opalite. */
  #refused(revoked: boolean, text: string): void {
    if (this.#handshake || !revoked) {
      this.#end(new OpaliteConnectError('refused', text), true);
      return;
    }
    this.state = 'revoked';
    this.#setAccounts([]);
  }

  /** Rejects whatever waits; `closeWindow` when the window has nothing more to show the person. */
  #end(error: OpaliteConnectError, closeWindow: boolean): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.#timer);
    clearInterval(this.#closedPoll);
    window.removeEventListener('message', this.#onMessage);
    this.#handshake?.reject(error);
    this.#handshake = null;
    for (const waiting of [...this.#waiting.values()]) waiting.reject(error);
    this.#waiting.clear();
    this.#accountListeners.clear();
    if (closeWindow) this.#popup.close();
  }
}

/**
 * Opens the Opalite window and resolves once the person allowed this page's origin (Opalite asks
 * once per origin, again after 30 days unused; an origin allowed before connects at once). Call
 * it from a click handler, or the browser blocks the popup. Keep the window open while you use
 * the connection.
 */
export async function connectOpalite(options: ConnectOptions): Promise<OpaliteConnection> {
  const origin = opaliteOrigin(options.opaliteUrl);
  const popup = window.open(new URL(CONNECT_PAGE_PATH, origin).href, '_blank', POPUP_FEATURES);
  if (!popup) throw new OpaliteConnectError('popup-blocked', 'The browser blocked the Opalite window: call connectOpalite from a click handler');
  const appName = typeof options.appName === 'string' ? options.appName : undefined;
  return new Connection(popup, origin, appName).opened(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** The polkadot{.js} extension's shape over a connection. */
function injectedOf(connection: OpaliteConnection): InjectedOpalite {
  return {
    name: 'opalite',
    version: PACKAGE_VERSION,
    connection,
    accounts: {
      get: () => connection.accounts(),
      subscribe: (cb) => connection.subscribeAccounts((accounts) => void cb(accounts))
    },
    signer: {
      signPayload: (payload) => connection.signPayload(payload),
      signRaw: (raw) => connection.signRaw(raw)
    }
  };
}

/**
 * `connectOpalite`, answered in polkadot{.js} extension's shape: code written for the extension
 * takes `accounts.get()`, `accounts.subscribe(cb)` and `signer` (for `@polkadot/api`'s
 * `signAndSend(address, { signer })`) from it unchanged. Call it from a click handler.
 */
export async function enableOpalite(options: ConnectOptions): Promise<InjectedOpalite> {
  return injectedOf(await connectOpalite(options));
}

/** What `window.injectedWeb3` holds for an extension (`@polkadot/extension-dapp` reads it). */
interface InjectedWindowProvider {
  version: string;
  enable(appName: string): Promise<InjectedOpalite>;
  connect(appName: string): Promise<InjectedOpalite>;
}

/**
 * Lists Opalite in `window.injectedWeb3` as the extension `opalite`, so `web3Enable(appName)` of
 * `@polkadot/extension-dapp` connects it (and `web3Accounts()`, `web3FromAddress()` then find its
 * accounts). `web3Enable` opens the Opalite window then: call it from a click handler.
 */
export function injectOpalite(options: Omit<ConnectOptions, 'appName'>): void {
  opaliteOrigin(options.opaliteUrl); // a bad URL fails here, not inside web3Enable (which only logs)
  const target = window as Window & { injectedWeb3?: Record<string, unknown> };
  target.injectedWeb3 ??= {};
  const enable = (appName: string) => enableOpalite({ ...options, appName });
  target.injectedWeb3.opalite = { version: PACKAGE_VERSION, enable, connect: enable } satisfies InjectedWindowProvider;
}
