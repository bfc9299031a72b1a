// Opalite's side of the connection, in its /connect window: it talks only to the window that
// opened it and only to the origin that said hello first, asks the person once per origin (and
// which accounts to share), then relays that origin's requests to this origin's sandbox
// (relay.ts) and its signature requests to the sign dialog. Consent is read again on every
// message, so a revocation on the Network page refuses the very next one; a sign dialog open
// when access ends is withdrawn, and no signature is posted after that point.
// Everything outside (the window, the wallet, the dialog, the sandbox) comes in as ports, so the
// message handling is tested without a browser (bridge.test.ts); ports.ts wires the real ones.
import { ApiError, errorResponse } from '../api/errors';
import { errorText } from '../client/errors';
import { addressFromPublicKey, publicKeyOf } from '../codec/address';
import type { SignerPayloadJSON } from '../codec/payload';
import { SANDBOX_PATH } from '../state/settings.svelte';
import { originRefusal, type AppConsents } from './consent';
import {
  BRIDGE_FEATURES,
  CONNECT_VERSION,
  MAX_IN_FLIGHT,
  MAX_MESSAGE_LENGTH,
  type OpaliteMessage,
  type RawPayload,
  type RequestMessage,
  type SharedAccount,
  type SignFailure,
  type SignMessage,
  type SignRawMessage
} from './protocol';
import { answerOf, notAllowed, relay, type RelayFetch } from './relay';
import { readClientMessage, type InvalidMessage } from './validate';

export type BridgePhase =
  /** Listening for the opener's hello. */
  | 'waiting'
  /** Opened directly, not by an app: nobody to connect. */
  | 'no-opener'
  /** The person decides. */
  | 'asking'
  | 'connected'
  | 'denied'
  | 'revoked'
  /** The opener's origin cannot connect (opaque, or plain http on the network). */
  | 'unsupported'
  | 'closed';

/** A wallet account as the person chooses among them. */
export interface WalletAccount {
  address: string;
  name: string;
  type: 'sr25519' | 'ed25519';
}

/** What the bridge needs of a message event. */
export interface BridgeMessageEvent {
  source: unknown;
  origin: string;
  data: unknown;
}

/** The window the bridge runs in. */
export interface BridgeHost {
  /** The window that opened this one (`window.opener`). */
  readonly opener: { postMessage(message: unknown, options: WindowPostMessageOptions): void } | null;
  /**
   * Calls `onMessage` for every message, `onHide` when the page goes away, and `onShown` when
   * the person comes back to the window (the wallet may have changed in another tab meanwhile);
   * returns the stop.
   */
  listen(onMessage: (event: BridgeMessageEvent) => void, onHide: () => void, onShown: () => void): () => void;
  focus(): void;
  close(): void;
}

export interface SignOptions {
  /** The accounts shared with the app (wallet addresses). */
  accounts: readonly string[];
  /** Aborted when the app's access ends: the dialog closes, and no signature comes back. */
  signal: AbortSignal;
}

/** The sign dialog, as src/lib/connect/sign-payload.ts opens it for an app. */
export interface BridgeSigner {
  signPayload(origin: string, payload: SignerPayloadJSON, options: SignOptions): Promise<string>;
  signRaw(origin: string, raw: RawPayload, options: SignOptions): Promise<string>;
  failureOf(error: unknown): { reason: SignFailure; message: string };
}

export interface BridgePorts {
  host: BridgeHost;
  consents: AppConsents;
  /** Calls back when another window changed the consents; returns the stop. */
  watchConsents(onChange: () => void): () => void;
  wallet: {
    /** The wallet's accounts, oldest first. */
    list(): Promise<WalletAccount[]>;
    /** Calls back after a change of the wallet; returns the stop. */
    subscribe(onChange: () => void): () => void;
  };
  signer: BridgeSigner;
  /** This origin's own fetch of the sandbox (the service worker or the in-page host answers). */
  fetchLedger: RelayFetch;
  /** Opalite's origin. */
  origin: string;
  /** The sandbox's genesis hash, told with each account; null when the sandbox does not answer. */
  genesisHash(): Promise<string | null>;
}

interface OpenSign {
  address: string;
  controller: AbortController;
}

const bounded = (text: string) => text.slice(0, MAX_MESSAGE_LENGTH);

/** The wallet's form of `address` (SS58 of any prefix, or a 0x public key); null when it names no account. */
function walletForm(address: string): string | null {
  try {
    return addressFromPublicKey(publicKeyOf(address));
  } catch {
    return null;
  }
}

export class ConnectBridge {
  phase = $state<BridgePhase>('waiting');
  /** The connecting app's origin, fixed by its first hello. */
  origin = $state<string | null>(null);
  /** The name the app gives itself: its claim, shown beside the origin, never instead of it. */
  appName = $state<string | null>(null);
  /** Why the opener's origin cannot connect (phase `unsupported`). */
  unsupported = $state<string | null>(null);
  /** Requests relayed so far (shown, so the person sees the app at work). */
  relayed = $state(0);
  /** A failure of this window itself (storage refused the choice). */
  error = $state<string | null>(null);
  /** The wallet's accounts, for the person to choose from. */
  walletAccounts = $state<WalletAccount[]>([]);
  /** The accounts shared with the app now: wallet addresses, in the wallet's order. */
  shared = $state<string[]>([]);

  readonly #ports: BridgePorts;
  #opener: BridgeHost['opener'] = null;
  #inFlight = 0;
  #closedAnnounced = false;
  readonly #signs = new Set<OpenSign>();
  /** The account list last told to the app, so an unchanged list is not told again. */
  #toldAccounts: string | null = null;
  #walletLoaded: Promise<void> = Promise.resolve();

  constructor(ports: BridgePorts) {
    this.#ports = ports;
  }

  /** Starts listening and tells the opener so; returns the stop (which tells it the window is gone). */
  start(): () => void {
    const { host } = this.#ports;
    this.#opener = host.opener;
    if (!this.#opener) {
      this.phase = 'no-opener';
      return () => {};
    }
    const stopListening = host.listen(
      (event) => void this.#receive(event),
      () => {
        // Kept in the back-forward cache or not, this connection is over: the app was told so.
        this.#end('The Opalite window closed');
        this.phase = 'closed';
      },
      () => void this.#refresh()
    );
    // Another window (the Network page) may share an account created after this one read the wallet.
    const stopConsents = this.#ports.watchConsents(() => {
      this.#consentsChanged(); // a revocation acts at once, before the wallet is read again
      void this.#refresh();
    });
    const stopWallet = this.#ports.wallet.subscribe(() => void this.#refresh());
    this.#walletLoaded = this.#loadWallet();
    // Carries nothing, so it may go to whatever origin the opener has; the hello names it.
    this.#opener.postMessage({ v: CONNECT_VERSION, type: 'loaded' } satisfies OpaliteMessage, { targetOrigin: '*' });
    return () => {
      stopListening();
      stopConsents();
      stopWallet();
      this.#end('The Opalite window closed');
    };
  }

  /** The person's Allow, sharing `accounts` (wallet addresses; none is a choice too). */
  allow(accounts: readonly string[]): void {
    const origin = this.origin;
    if (this.phase !== 'asking' || !origin) return;
    try {
      this.#ports.consents.allow(origin, this.#inWallet(accounts));
    } catch (error) {
      this.error = errorText(error);
      this.#refuse('denied', this.error);
      return;
    }
    this.phase = 'connected';
    void this.#ready();
  }

  /** The person's Deny: nothing is remembered, the app may ask again later. */
  deny(): void {
    if (this.phase !== 'asking') return;
    this.#refuse('denied', 'The person denied access to the Opalite sandbox');
  }

  /** The person changes the accounts shared with the connected app (in this window). */
  share(accounts: readonly string[]): void {
    const origin = this.origin;
    if (this.phase !== 'connected' || !origin) return;
    try {
      this.error = null;
      this.#ports.consents.share(origin, this.#inWallet(accounts));
    } catch (error) {
      this.error = errorText(error);
    }
    this.#consentsChanged();
  }

  /** Revokes this origin here (as the Network page does) and tells the app. */
  revoke(): void {
    if (this.origin) this.#ports.consents.revoke(this.origin);
    this.#stillAllowed();
  }

  /** Ends this connection (the origin stays allowed) and closes the window. */
  disconnect(): void {
    this.#end('The person disconnected the app');
    this.phase = 'closed';
    this.#ports.host.close();
  }

  async #receive(event: BridgeMessageEvent): Promise<void> {
    // Only the window that opened this one speaks to it, and only from the origin it said hello from.
    if (event.source !== this.#opener || !this.#opener) return;
    const message = readClientMessage(event.data);
    if (!message) return;
    if (message.type === 'hello') return this.#hello(event.origin, message.appName);
    if (this.origin === null || event.origin !== this.origin) return;
    switch (message.type) {
      case 'bye':
        this.#end('The app closed the connection');
        this.phase = 'closed';
        return;
      case 'request':
        return this.#request(message);
      case 'sign':
      case 'sign-raw':
        return this.#sign(message);
      case 'invalid':
        return message.of === 'request' ? this.#request(message) : this.#sign(message);
    }
  }

  #hello(origin: string, appName: string | undefined): void {
    if (this.origin !== null && origin !== this.origin) return; // one origin per window
    const refusal = originRefusal(origin);
    if (refusal) {
      this.phase = 'unsupported';
      this.unsupported = refusal;
      // Such an origin may not even be a target (opaque); the refusal carries nothing of the person's.
      this.#opener?.postMessage({ v: CONNECT_VERSION, type: 'refused', reason: 'unsupported-origin', message: bounded(refusal) } satisfies OpaliteMessage, { targetOrigin: '*' });
      return;
    }
    if (this.origin === null) {
      this.origin = origin;
      this.appName = appName ?? null;
    }
    if (this.phase === 'connected' || (this.phase === 'waiting' && this.#ports.consents.has(origin))) {
      // Asked once per origin while the consent lasts: an allowed one is connected at once.
      this.phase = 'connected';
      this.#ports.consents.touch(origin);
      void this.#ready();
    } else if (this.phase === 'waiting') {
      this.phase = 'asking';
    }
  }

  async #ready(): Promise<void> {
    const accounts = await this.#sharedAccounts();
    if (this.phase !== 'connected') return;
    this.#toldAccounts = JSON.stringify(accounts);
    this.#post({ v: CONNECT_VERSION, type: 'ready', apiPath: SANDBOX_PATH, accounts, features: BRIDGE_FEATURES });
  }

  /** Whether the app may act now; a revocation (or a lapsed consent) seen here ends the connection. */
  #stillAllowed(): boolean {
    if (this.phase !== 'connected' || !this.origin) return false;
    if (this.#ports.consents.has(this.origin)) return true;
    this.#refuse('revoked', 'Access to the Opalite sandbox was revoked');
    return false;
  }

  /** After any change of the consents or the wallet: tell the app its accounts, withdraw what it lost. */
  #consentsChanged(): void {
    if (!this.#stillAllowed()) return;
    this.#setShared(this.#sharedAddresses());
    this.#withdraw('The account is no longer shared with this app', (sign) => !this.shared.includes(sign.address));
    void this.#tellAccounts();
  }

  async #tellAccounts(): Promise<void> {
    if (this.#toldAccounts === null) return; // not ready yet: the ready message carries them
    const accounts = await this.#sharedAccounts();
    const told = JSON.stringify(accounts);
    if (this.phase !== 'connected' || told === this.#toldAccounts) return;
    this.#toldAccounts = told;
    this.#post({ v: CONNECT_VERSION, type: 'accounts', accounts });
  }

  /** Reads the wallet again, then tells the app what changed and withdraws what it lost. */
  async #refresh(): Promise<void> {
    this.#walletLoaded = this.#loadWallet();
    await this.#walletLoaded;
    this.#consentsChanged();
  }

  async #loadWallet(): Promise<void> {
    try {
      this.walletAccounts = await this.#ports.wallet.list();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** The consent's accounts that are in the wallet now, in the wallet's order. */
  #sharedAddresses(): string[] {
    const consent = this.origin ? this.#ports.consents.get(this.origin) : undefined;
    if (!consent) return [];
    return this.walletAccounts.filter((account) => consent.accounts.includes(account.address)).map((account) => account.address);
  }

  async #sharedAccounts(): Promise<SharedAccount[]> {
    await this.#walletLoaded;
    const genesisHash = await this.#ports.genesisHash().catch(() => null);
    this.#setShared(this.#sharedAddresses());
    return this.walletAccounts
      .filter((account) => this.shared.includes(account.address))
      .map(({ address, name, type }) => ({ address, name, type, genesisHash }));
  }

  /** A new list only when it differs, so what the person is choosing is not reset for nothing. */
  #setShared(addresses: string[]): void {
    if (addresses.length !== this.shared.length || addresses.some((address, i) => address !== this.shared[i])) this.shared = addresses;
  }

  /** `accounts` that are this wallet's (a choice made as the wallet changed keeps only those). */
  #inWallet(accounts: readonly string[]): string[] {
    return this.walletAccounts.map((account) => account.address).filter((address) => accounts.includes(address));
  }

  /** Whether `address` (however spelled) is an account shared with the app now. */
  #isShared(address: string): boolean {
    const form = walletForm(address);
    return form !== null && this.#sharedAddresses().includes(form);
  }

  async #request(message: RequestMessage | InvalidMessage): Promise<void> {
    const origin = this.origin ?? 'This page';
    if (!this.#stillAllowed()) return this.#respondError(message.id, notAllowed(origin));
    if (message.type === 'invalid') {
      return this.#respondError(message.id, new ApiError(message.status === 413 ? 'PayloadTooLargeError' : 'ValidationError', message.problem));
    }
    if (this.#inFlight >= MAX_IN_FLIGHT) {
      return this.#respondError(message.id, new ApiError('ValidationError', `At most ${MAX_IN_FLIGHT} requests may wait at once`, undefined, 429));
    }
    this.#ports.consents.touch(origin);
    this.#inFlight++;
    try {
      const answer = await relay(message, this.#ports.fetchLedger, this.#ports.origin);
      // Revoked meanwhile: what was read goes no further.
      if (!this.#stillAllowed()) return this.#respondError(message.id, notAllowed(origin));
      this.relayed++;
      this.#post({ v: CONNECT_VERSION, type: 'response', id: message.id, ...answer }, answer.body ? [answer.body] : []);
    } finally {
      this.#inFlight--;
    }
  }

  async #sign(message: SignMessage | SignRawMessage | InvalidMessage): Promise<void> {
    const fail = (reason: SignFailure, text: string) => this.#post({ v: CONNECT_VERSION, type: 'sign-failed', id: message.id, reason, message: bounded(text) });
    const origin = this.origin;
    if (!origin || !this.#stillAllowed()) return fail('refused', notAllowed(origin ?? 'This page').message);
    if (message.type === 'invalid') return fail('invalid', message.problem);
    if (this.#inFlight >= MAX_IN_FLIGHT) return fail('refused', `At most ${MAX_IN_FLIGHT} requests may wait at once`);
    const address = message.type === 'sign' ? message.payload.address : message.raw.address;
    if (!this.#isShared(address)) {
      return fail('refused', `${address.slice(0, 66)} is not an account the person shared with ${origin}: they can share it in the Opalite window`);
    }
    this.#ports.consents.touch(origin);
    const open: OpenSign = { address: walletForm(address)!, controller: new AbortController() };
    const options: SignOptions = { accounts: this.#sharedAddresses(), signal: open.controller.signal };
    this.#signs.add(open);
    this.#inFlight++;
    this.#ports.host.focus(); // the person must see the dialog
    try {
      const signature =
        message.type === 'sign' ? await this.#ports.signer.signPayload(origin, message.payload, options) : await this.#ports.signer.signRaw(origin, message.raw, options);
      // Checked again at the last moment: access may have ended while the person decided.
      if (open.controller.signal.aborted || !this.#stillAllowed() || !this.#isShared(address)) {
        return fail('refused', withdrawnText(open.controller.signal));
      }
      this.#post({ v: CONNECT_VERSION, type: 'signed', id: message.id, signature });
    } catch (error) {
      if (open.controller.signal.aborted) return fail('refused', withdrawnText(open.controller.signal));
      const failure = this.#ports.signer.failureOf(error);
      fail(failure.reason, failure.message);
    } finally {
      this.#signs.delete(open);
      this.#inFlight--;
    }
  }

  /** Closes the sign dialogs `which` selects (all by default): their signatures never leave. */
  #withdraw(reason: string, which: (sign: OpenSign) => boolean = () => true): void {
    for (const sign of this.#signs) if (which(sign)) sign.controller.abort(new Error(reason));
  }

  async #respondError(id: number, error: ApiError): Promise<void> {
    const answer = await answerOf(errorResponse(error));
    this.#post({ v: CONNECT_VERSION, type: 'response', id, ...answer }, answer.body ? [answer.body] : []);
  }

  #refuse(reason: 'denied' | 'revoked', message: string): void {
    this.phase = reason;
    this.#setShared([]);
    this.#withdraw(message);
    this.#post({ v: CONNECT_VERSION, type: 'refused', reason, message: bounded(message) });
  }

  /** The connection ends (bye, Disconnect, the window going): dialogs withdrawn, the app told once. */
  #end(reason: string): void {
    this.#withdraw(reason);
    if (this.#closedAnnounced) return;
    this.#closedAnnounced = true;
    this.#post({ v: CONNECT_VERSION, type: 'closed' });
  }

  /** To the opener, and only while it still shows the connected origin (else the browser drops it). */
  #post(message: OpaliteMessage, transfer: Transferable[] = []): void {
    if (!this.#opener || !this.origin) return;
    try {
      this.#opener.postMessage(message, { targetOrigin: this.origin, transfer });
    } catch {
      // The opener is gone: nothing to tell.
    }
  }
}

function withdrawnText(signal: AbortSignal): string {
  const why = signal.reason instanceof Error ? signal.reason.message : 'Access to the Opalite sandbox ended';
  return `${why}: nothing was signed for the app`;
}
