// Every signature goes through here: Build, the signing rule (codec/signing-rule.ts: the bytes
// signed are rebuilt from the payload and checked against the service's chain, never a hex a
// service or an app sent), a sign dialog (the call in words and what a dry run says it will do;
// the password when the key is locked), Submit, then the status until the extrinsic is in a
// block. The sign dialog (ui/SignDialog.svelte, in the layout) renders `signing.current`. Keys
// stay in the wallet: only signatures leave the page, never a seed.
import { u8aToHex } from '@polkadot/util';
import type { RestClient } from '../client/client';
import { ExtrinsicFailedError, SignatureCancelledError, errorText } from '../client/errors';
import { runExtrinsic, type FlowProgress, type FlowResult } from '../client/flow';
import type { SignPreview } from '../client/sign/load';
import type { BuildResult, ChainProperties, DecodedCall, MutationRequest } from '../client/types';
import type { Call } from '../codec/call-types';
// Types only: the rule's code (and the codec and crypto under it) loads when something is signed,
// not with the first page (checkedForSigning imports it).
import type { CheckedPayload, RawMessage, SigningChain, SigningRuleError } from '../codec/signing-rule';
import { IMPERSONATION_SIGNATURE } from '../codec/impersonation';
import { connection } from './connection.svelte';
import { impersonation } from './impersonation.svelte';
import { notices } from './notices.svelte';
import { session } from './session.svelte';
import { txlog } from './txlog.svelte';

export type SignPhase = 'review' | 'unlocking' | 'submitting' | 'waiting' | 'failed';

/** Sign stays disabled this long after a dialog appears (and after its preview changes what it shows), as Allow does. */
export const ARM_DELAY_MS = 800;

/** An extrinsic: the bytes the rule allows, the call they carry, and the service's Build and decode answers. */
export interface ExtrinsicSubject {
  kind: 'extrinsic';
  built: BuildResult;
  decoded: DecodedCall;
  /** The call decoded here from the signed bytes (what the dialog shows). */
  call: Call;
  /** The signing message: rebuilt from `built.signerPayloadJSON` by the rule. */
  message: Uint8Array;
}

/** A polkadot{.js} `signRaw` message: always `<Bytes>…</Bytes>`-wrapped, never a transaction. */
export interface RawSubject {
  kind: 'raw';
  raw: RawMessage;
  message: Uint8Array;
}

export type SignSubject = ExtrinsicSubject | RawSubject;

export type PreviewState = { status: 'loading' } | { status: 'ready'; preview: SignPreview } | { status: 'failed'; message: string };

export interface SignRequest {
  id: number;
  title: string;
  signer: string;
  baseUrl: string;
  /** The origin of another app that asked (`opalite/connect`); null for the app's own calls. */
  origin: string | null;
  subject: SignSubject;
  /** Batch `index` of `total`: approving signs the remaining batches of the series too. */
  series: { index: number; total: number } | null;
  /** False when the signature goes back to another app, which submits it (`opalite/connect`); default true. */
  submits?: boolean;
  /** Acting as the signer in a sandbox: no key signs, the service does (Authorization: Impersonate). */
  impersonated: boolean;
  /** What the call will do (null for a raw message). */
  preview: PreviewState | null;
  /** Sign acts only once this is true: ARM_DELAY_MS after the dialog showed what it now shows. */
  armed: boolean;
  phase: SignPhase;
  error: string | null;
  hash: string | null;
  chainStatus: string | null;
}

export interface AskRequest {
  title: string;
  signer: string;
  /** The service the signature is for (its dry run previews the call). */
  client: RestClient;
  origin?: string | null;
  subject: SignSubject;
  series?: { index: number; total: number } | null;
  submits?: boolean;
  /** The signer is acted as (impersonated): approving asks no password and makes no signature. */
  impersonated?: boolean;
}

/** Why Opalite will not even ask the person: the message says what to change. Nothing was signed. */
export class SignRefusedError extends Error {
  override readonly name = 'SignRefusedError';
}

/** The request ended before a signature was made (the app lost its access, said bye, or its window closed). */
export class SignAbortedError extends Error {
  override readonly name = 'SignAbortedError';
  constructor(message = 'The request ended before it was signed (the app’s access ended): nothing was signed') {
    super(message);
  }
}

/** The public development key that funds new accounts in one click. */
export const DEV_FUNDER_URI = '//Alice';
/** Whole units sent by "Fund from //Alice". */
export const DEV_FUND_AMOUNT = 1000;
export const DEV_KEY_NOTE = 'Signed in this page with the public development key //Alice (not a key of yours)';
export const IMPERSONATED_NOTE = 'Impersonated: submitted as this address without its key (valid only in this sandbox)';

/** The signing rule's chain for a service's chain properties; a service that names no chain gets no signature. */
export function signingChainOf(chain: ChainProperties, baseUrl: string): SigningChain {
  if (typeof chain.genesisHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(chain.genesisHash)) {
    throw new SignRefusedError(`${baseUrl} does not say which chain it is (no genesisHash in its chain properties): Opalite signs only for a chain it can name`);
  }
  return { genesisHash: chain.genesisHash, signedExtensions: Array.isArray(chain.signedExtensions) ? chain.signedExtensions : undefined };
}

/** The rule's refusals, recognised by name (its module is loaded only when something is signed). */
function isRuleRefusal(error: unknown): error is SigningRuleError {
  return error instanceof Error && (error.name === 'SigningRuleError' || error.name === 'PayloadError');
}

/** A refusal of the rule, as the person reads it. */
function refusedBecause(error: unknown): never {
  if (isRuleRefusal(error)) throw new SignRefusedError(`Opalite will not sign this: ${error.message}`);
  throw error;
}

/**
 * The bytes `check` allows on `client`'s chain. A payload for another genesis asks the service
 * once more (a reset or an import makes the sandbox a new chain) before it is refused.
 */
export async function checkOnChain<T>(client: RestClient, check: (chain: SigningChain) => T): Promise<T> {
  try {
    return check(signingChainOf(await connection.chainOf(client), client.baseUrl));
  } catch (error) {
    if (!(isRuleRefusal(error) && error.reason === 'genesis')) refusedBecause(error);
  }
  try {
    return check(signingChainOf(await connection.chainOf(client, true), client.baseUrl));
  } catch (error) {
    refusedBecause(error);
  }
}

/** The rule's message for a service's Build answer: its hex must be the payload it describes, for that service's chain. */
export async function checkedForSigning(client: RestClient, built: BuildResult): Promise<CheckedPayload> {
  const { checkBuiltPayload } = await import('../codec/signing-rule');
  return checkOnChain(client, (chain) => checkBuiltPayload(built.signerPayloadJSON, built.signerPayloadHex, chain));
}

export function extrinsicSubject(built: BuildResult, decoded: DecodedCall, checked: CheckedPayload): ExtrinsicSubject {
  return { kind: 'extrinsic', built: { ...built, signerPayloadHex: checked.messageHex }, decoded, call: checked.call, message: checked.message };
}

class Signing {
  current = $state<SignRequest | null>(null);
  #resolve: ((signature: string) => void) | null = null;
  #reject: ((error: Error) => void) | null = null;
  #signal: AbortSignal | null = null;
  #armTimer: ReturnType<typeof setTimeout> | undefined;
  #next = 1;

  /**
   * Opens the dialog and waits for the person's signature (or their cancel). When `signal`
   * aborts, the dialog closes at once and the promise rejects with SignAbortedError; no
   * signature is made after that.
   */
  ask(request: AskRequest, options: { signal?: AbortSignal } = {}): Promise<string> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new SignAbortedError());
    if (this.current && this.current.phase !== 'failed') return Promise.reject(new Error('Another signature is waiting: finish or cancel it first'));
    const id = this.#next++;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        if (this.current?.id !== id) return;
        this.#finish(id);
        reject(new SignAbortedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#resolve = (signature) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(signature);
      };
      this.#reject = (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      this.#signal = signal ?? null;
      const { client, subject } = request;
      this.current = {
        id,
        title: request.title,
        signer: request.signer,
        baseUrl: client.baseUrl,
        origin: request.origin ?? null,
        subject,
        series: request.series ?? null,
        submits: request.submits,
        impersonated: request.impersonated === true,
        preview: subject.kind === 'extrinsic' ? { status: 'loading' } : null,
        armed: false,
        phase: 'review',
        error: null,
        hash: null,
        chainStatus: null
      };
      this.#arm(id);
      if (subject.kind === 'extrinsic') void this.#preview(id, client, subject, request.signer);
    });
  }

  async #preview(id: number, client: RestClient, subject: ExtrinsicSubject, signer: string): Promise<void> {
    let state: PreviewState;
    try {
      // Loaded when a dialog opens, not with the first page (addresses need the crypto library).
      const [{ loadPreview }, { knownAddress }] = await Promise.all([import('../client/sign/load'), import('./address-book.svelte')]);
      const nameOf = (address: string) => knownAddress(address)?.name ?? null;
      state = { status: 'ready', preview: await loadPreview({ client, call: subject.call, built: subject.built, decoded: subject.decoded, signer, nameOf, chain: await connection.chainOf(client) }) };
    } catch (error) {
      state = { status: 'failed', message: errorText(error) };
    }
    if (this.current?.id !== id) return;
    this.current.preview = state;
    // What the dialog shows just changed under the person's pointer: Sign waits again.
    this.#arm(id);
  }

  #arm(id: number): void {
    if (this.current?.id !== id) return;
    this.current.armed = false;
    clearTimeout(this.#armTimer);
    this.#armTimer = setTimeout(() => {
      if (this.current?.id === id) this.current.armed = true;
    }, ARM_DELAY_MS);
  }

  /** The dialog is on screen now (it may load after the request): Sign waits ARM_DELAY_MS from here. */
  shown(id: number): void {
    this.#arm(id);
  }

  /** Whether Sign may act on `request` now: armed, and nothing says it must not be signed. */
  canSign(request: SignRequest): boolean {
    if (request.phase !== 'review' || !request.armed) return false;
    const preview = request.preview;
    if (preview === null) return true;
    if (preview.status === 'loading') return false;
    return preview.status === 'failed' || preview.preview.refusal === null;
  }

  /**
   * The dialog's Sign: unlocks with `password` when the key is locked, then signs the rule's bytes.
   * Acting as the signer, no key signs: the sandbox takes the impersonation placeholder at submit.
   */
  async approve(password: string): Promise<void> {
    const request = this.current;
    if (!request || !this.canSign(request)) return;
    const signal = this.#signal;
    const vault = session.wallet.vault;
    request.error = null;
    try {
      if (request.impersonated) {
        request.phase = 'submitting';
        this.#hand(IMPERSONATION_SIGNATURE);
        return;
      }
      if (!vault.isUnlocked(request.signer)) {
        request.phase = 'unlocking';
        await vault.unlock(request.signer, password);
        // Closed (cancelled, or the app's access ended) while the password was checked.
        if (this.current?.id !== request.id || signal?.aborted) return;
      }
      const signature = vault.sign(request.signer, request.subject.message);
      // Checked again after signing: a signature made as access ended never leaves.
      if (this.current?.id !== request.id || signal?.aborted) return;
      request.phase = 'submitting';
      this.#hand(signature);
    } catch (error) {
      if (this.current?.id !== request.id) return;
      request.phase = 'review';
      request.error = errorText(error);
    }
  }

  /** Gives the signature to the one who asked; the dialog stays to show the progress. */
  #hand(signature: string): void {
    const resolve = this.#resolve;
    this.#resolve = this.#reject = null;
    this.#signal = null;
    resolve?.(signature);
  }

  /** Cancel before signing; close after a failure. */
  dismiss(): void {
    const request = this.current;
    if (!request) return;
    if (request.phase === 'review' || request.phase === 'unlocking') {
      const reject = this.#reject;
      this.#finish(request.id);
      reject?.(new SignatureCancelledError());
    } else if (request.phase === 'failed') {
      this.current = null;
    }
  }

  #finish(id: number): void {
    if (this.current?.id !== id) return;
    this.#resolve = this.#reject = null;
    this.#signal = null;
    clearTimeout(this.#armTimer);
    this.current = null;
  }

  progress(progress: FlowProgress): void {
    const request = this.current;
    if (!request || request.phase === 'review' || request.phase === 'failed') return;
    if (progress.step === 'status') {
      request.phase = 'waiting';
      request.hash = progress.hash ?? request.hash;
      request.chainStatus = progress.status?.status ?? request.chainStatus;
    }
  }

  fail(message: string): void {
    if (!this.current) return;
    this.current.phase = 'failed';
    this.current.error = message;
  }

  close(): void {
    clearTimeout(this.#armTimer);
    this.current = null;
  }
}

export const signing = new Signing();

export interface TransactOptions {
  /** Batch `index` of `total` of one mint. */
  series?: { index: number; total: number };
  /** The person approved this series already: sign without asking while the key is unlocked. */
  preapproved?: boolean;
  /** The success notice (default: "<title>: done in block N"). */
  success?: (result: FlowResult) => string;
  /** No success notice (a series reports once at its end). */
  quiet?: boolean;
}

function blockOf(result: FlowResult): number | undefined {
  return result.status.block?.header?.number;
}

/**
 * Runs one mutation through Build → signing rule → sign dialog → Submit → status, signed by
 * `call.body.address` (an account of this wallet). Throws ApiError (refused at build or submit),
 * SignRefusedError (the rule refused the payload; nothing was signed), SignatureCancelledError,
 * ExtrinsicFailedError (the chain's error) or a NetworkError.
 */
export async function transact(title: string, call: MutationRequest, options: TransactOptions = {}): Promise<FlowResult> {
  const client = connection.client;
  const baseUrl = client.baseUrl;
  const signer = typeof call.body.address === 'string' ? call.body.address : '';
  if (!session.account(signer)) throw new Error('Choose an account of this wallet to sign with (Accounts page)');
  // Acting as the signer (a sandbox with impersonation on): the service signs, the person still confirms each call.
  const impersonated = impersonation.isActing(signer);
  const vault = session.wallet.vault;
  try {
    const result = await runExtrinsic(
      client,
      call,
      async (built, decoded) => {
        const checked = await checkedForSigning(client, built);
        if (options.preapproved && !impersonated && vault.isUnlocked(signer)) return vault.sign(signer, checked.message);
        return signing.ask({ title, signer, client, subject: extrinsicSubject(built, decoded, checked), series: options.series ?? null, impersonated });
      },
      {
        impersonate: impersonated ? signer : undefined,
        onProgress: (p) => signing.progress(p),
        onSubmitted: (hash, decoded) => txlog.add(baseUrl, hash, title, decoded, impersonated ? IMPERSONATED_NOTE : undefined)
      }
    );
    signing.close();
    connection.changed();
    if (!options.quiet) {
      const block = blockOf(result);
      notices.add('success', options.success?.(result) ?? `${title}: done${block !== undefined ? ` in block ${block}` : ''}`);
    }
    return result;
  } catch (error) {
    if (error instanceof SignatureCancelledError) throw error;
    if (signing.current) signing.fail(errorText(error));
    if (error instanceof ExtrinsicFailedError) connection.changed();
    throw error;
  }
}

/**
 * "Fund from //Alice": a transfer signed in this page with the well-known development key
 * //Alice, derived in memory from its public dev URI. It is nobody's secret, and no seed is sent.
 * The bytes it signs are the signing rule's, as every other signature's.
 */
export async function fundFromDevAccount(destination: string, amount = DEV_FUND_AMOUNT): Promise<FlowResult> {
  // The dev key's crypto loads here, when used, not with every page (issue 10: a fast first visit).
  const [{ Keyring }, { cryptoWaitReady }] = await Promise.all([import('@polkadot/keyring'), import('@polkadot/util-crypto')]);
  await cryptoWaitReady();
  const pair = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(DEV_FUNDER_URI);
  const client = connection.client;
  const title = `Fund ${destination.slice(0, 8)}… with ${amount} from ${DEV_FUNDER_URI}`;
  try {
    const result = await runExtrinsic(
      client,
      { method: 'POST', path: '/balance/transfer', body: { address: pair.address, destination, amount } },
      async (built) => u8aToHex(pair.sign((await checkedForSigning(client, built)).message, { withType: true })),
      { onSubmitted: (hash, decoded) => txlog.add(client.baseUrl, hash, title, decoded, DEV_KEY_NOTE) }
    );
    connection.changed();
    notices.add('success', `Funded with ${amount} from ${DEV_FUNDER_URI} (signed with its public development key)`);
    return result;
  } finally {
    pair.lock();
  }
}
