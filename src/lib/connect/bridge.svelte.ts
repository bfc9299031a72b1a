// Opalite's side of the connection, in its /connect window: it talks only to the window that
// opened it and only to the origin that said hello first, asks the person once per origin, and
// then relays that origin's requests to this origin's sandbox (relay.ts) and its signature
// requests to the sign dialog (sign-payload.ts). Consent is read again on every request, so a
// revocation on the Network page refuses the very next one.
import { ApiError, errorResponse } from '../api/errors';
import { apiFetch } from '../browser/api';
import { errorText } from '../client/errors';
import { SANDBOX_PATH } from '../state/settings.svelte';
import { AllowedOrigins, isRememberableOrigin, watchAllowedOrigins } from './allowed-origins';
import { MAX_IN_FLIGHT, MAX_MESSAGE_LENGTH, type OpaliteMessage, type RequestMessage, type SignFailure, type SignMessage } from './protocol';
import { answerOf, notAllowed, relay } from './relay';
import { signFailureOf, signForApp } from './sign-payload';
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
  /** The opener's origin is opaque (a sandboxed frame, a file): it cannot be allowed. */
  | 'unsupported'
  | 'closed';

const bounded = (text: string) => text.slice(0, MAX_MESSAGE_LENGTH);

export class ConnectBridge {
  phase = $state<BridgePhase>('waiting');
  /** The connecting app's origin, fixed by its first hello. */
  origin = $state<string | null>(null);
  /** Requests relayed so far (shown, so the person sees the app at work). */
  relayed = $state(0);
  /** A failure of this window itself (storage refused the choice). */
  error = $state<string | null>(null);

  readonly #allowed: AllowedOrigins;
  #opener: Window | null = null;
  #inFlight = 0;
  #closedAnnounced = false;

  constructor(allowed: AllowedOrigins = new AllowedOrigins()) {
    this.#allowed = allowed;
  }

  /** Starts listening and tells the opener so; returns the stop (which tells it the window is gone). */
  start(): () => void {
    this.#opener = (window.opener as Window | null) ?? null;
    if (!this.#opener) {
      this.phase = 'no-opener';
      return () => {};
    }
    const onMessage = (event: MessageEvent) => void this.#receive(event);
    const onHide = () => this.#announceClosed();
    window.addEventListener('message', onMessage);
    window.addEventListener('pagehide', onHide);
    const stopWatching = watchAllowedOrigins(() => this.#stillAllowed());
    // Carries nothing, so it may go to whatever origin the opener has; the hello names it.
    this.#opener.postMessage({ v: 1, type: 'loaded' } satisfies OpaliteMessage, '*');
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener('pagehide', onHide);
      stopWatching();
      this.#announceClosed();
    };
  }

  /** The person's Allow. */
  allow(): void {
    const origin = this.origin;
    if (this.phase !== 'asking' || !origin) return;
    try {
      this.#allowed.allow(origin);
    } catch (error) {
      this.error = errorText(error);
      this.#refuse('denied', this.error);
      return;
    }
    this.phase = 'connected';
    this.#post({ v: 1, type: 'ready', apiPath: SANDBOX_PATH });
  }

  /** The person's Deny: nothing is remembered, the app may ask again later. */
  deny(): void {
    if (this.phase !== 'asking') return;
    this.#refuse('denied', 'The person denied access to the Opalite sandbox');
  }

  /** Revokes this origin here (as the Network page does) and tells the app. */
  revoke(): void {
    if (this.origin) this.#allowed.revoke(this.origin);
    this.#stillAllowed();
  }

  /** Ends this connection (the origin stays allowed) and closes the window. */
  disconnect(): void {
    this.#announceClosed();
    this.phase = 'closed';
    window.close();
  }

  async #receive(event: MessageEvent): Promise<void> {
    // Only the window that opened this one speaks to it, and only from the origin it said hello from.
    if (event.source !== this.#opener) return;
    const message = readClientMessage(event.data);
    if (!message) return;
    if (message.type === 'hello') return this.#hello(event.origin);
    if (this.origin === null || event.origin !== this.origin) return;
    switch (message.type) {
      case 'bye':
        this.phase = 'closed';
        return;
      case 'request':
        return this.#request(message);
      case 'sign':
        return this.#sign(message);
      case 'invalid':
        return message.of === 'sign' ? this.#sign(message) : this.#request(message);
    }
  }

  #hello(origin: string): void {
    if (this.origin !== null && origin !== this.origin) return; // one origin per window
    if (!isRememberableOrigin(origin)) {
      this.phase = 'unsupported';
      // An opaque origin cannot be named as a target; the refusal carries nothing else.
      this.#opener?.postMessage({ v: 1, type: 'refused', reason: 'unsupported-origin', message: 'Only http(s) pages can connect to Opalite' } satisfies OpaliteMessage, '*');
      return;
    }
    this.origin = origin;
    if (this.phase === 'connected' || (this.phase === 'waiting' && this.#allowed.has(origin))) {
      // Asked once per origin: an allowed one is connected at once.
      this.phase = 'connected';
      this.#post({ v: 1, type: 'ready', apiPath: SANDBOX_PATH });
    } else if (this.phase === 'waiting') {
      this.phase = 'asking';
    }
  }

  /** Whether the app may act now; a revocation seen here ends the connection. */
  #stillAllowed(): boolean {
    if (this.phase !== 'connected' || !this.origin) return false;
    if (this.#allowed.has(this.origin)) return true;
    this.#refuse('revoked', 'Access to the Opalite sandbox was revoked');
    return false;
  }

  async #request(message: RequestMessage | InvalidMessage): Promise<void> {
    if (!this.#stillAllowed()) return this.#respondError(message.id, notAllowed(this.origin ?? 'This page'));
    if (message.type === 'invalid') {
      return this.#respondError(message.id, new ApiError(message.status === 413 ? 'PayloadTooLargeError' : 'ValidationError', message.problem));
    }
    if (this.#inFlight >= MAX_IN_FLIGHT) {
      return this.#respondError(message.id, new ApiError('ValidationError', `At most ${MAX_IN_FLIGHT} requests may wait at once`, undefined, 429));
    }
    this.#inFlight++;
    try {
      const answer = await relay(message, apiFetch);
      this.relayed++;
      this.#post({ v: 1, type: 'response', id: message.id, ...answer }, answer.body ? [answer.body] : []);
    } finally {
      this.#inFlight--;
    }
  }

  async #sign(message: SignMessage | InvalidMessage): Promise<void> {
    const fail = (reason: SignFailure, text: string) => this.#post({ v: 1, type: 'sign-failed', id: message.id, reason, message: bounded(text) });
    const origin = this.origin;
    if (!origin || !this.#stillAllowed()) return fail('refused', notAllowed(origin ?? 'This page').message);
    if (message.type === 'invalid') return fail('invalid', message.problem);
    if (this.#inFlight >= MAX_IN_FLIGHT) return fail('refused', `At most ${MAX_IN_FLIGHT} requests may wait at once`);
    this.#inFlight++;
    window.focus(); // the person must see the dialog
    try {
      const signature = await signForApp(origin, message.payload);
      this.#post({ v: 1, type: 'signed', id: message.id, signature });
    } catch (error) {
      const failure = signFailureOf(error);
      fail(failure.reason, failure.message);
    } finally {
      this.#inFlight--;
    }
  }

  async #respondError(id: number, error: ApiError): Promise<void> {
    const answer = await answerOf(errorResponse(error));
    this.#post({ v: 1, type: 'response', id, ...answer }, answer.body ? [answer.body] : []);
  }

  #refuse(reason: 'denied' | 'revoked', message: string): void {
    this.phase = reason;
    this.#post({ v: 1, type: 'refused', reason, message: bounded(message) });
  }

  #announceClosed(): void {
    if (this.#closedAnnounced) return;
    this.#closedAnnounced = true;
    this.#post({ v: 1, type: 'closed' });
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
