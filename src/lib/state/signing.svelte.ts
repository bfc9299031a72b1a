// Every change goes through here: Build, a sign dialog (decoded call, signer, fee; the password
// when the key is locked), Submit, then the status until the extrinsic is in a block. The sign
// dialog (ui/SignDialog.svelte, in the layout) renders `signing.current`. Keys stay in the
// wallet: only signatures leave the page, never a seed.
import { hexToU8a, u8aToHex } from '@polkadot/util';
import { ExtrinsicFailedError, SignatureCancelledError, errorText } from '../client/errors';
import { runExtrinsic, type FlowProgress, type FlowResult } from '../client/flow';
import type { BuildResult, DecodedCall, MutationRequest } from '../client/types';
import { connection } from './connection.svelte';
import { notices } from './notices.svelte';
import { session } from './session.svelte';
import { txlog } from './txlog.svelte';

export type SignPhase = 'review' | 'unlocking' | 'submitting' | 'waiting' | 'failed';

export interface SignRequest {
  id: number;
  title: string;
  signer: string;
  decoded: DecodedCall;
  built: BuildResult;
  baseUrl: string;
  /** Batch `index` of `total`: approving signs the remaining batches of the series too. */
  series: { index: number; total: number } | null;
  /** False when the signature goes back to another app, which submits it (`opalite/connect`); default true. */
  submits?: boolean;
  phase: SignPhase;
  error: string | null;
  hash: string | null;
  chainStatus: string | null;
}

/** The public development key that funds new accounts in one click. */
export const DEV_FUNDER_URI = '//Alice';
/** Whole units sent by "Fund from //Alice". */
export const DEV_FUND_AMOUNT = 1000;
export const DEV_KEY_NOTE = 'Signed in this page with the public development key //Alice (not a key of yours)';

class Signing {
  current = $state<SignRequest | null>(null);
  #resolve: ((signature: string) => void) | null = null;
  #reject: ((error: Error) => void) | null = null;
  #next = 1;

  /** Opens the dialog and waits for the person's signature (or their cancel). */
  ask(request: Omit<SignRequest, 'id' | 'phase' | 'error' | 'hash' | 'chainStatus'>): Promise<string> {
    if (this.current && this.current.phase !== 'failed') return Promise.reject(new Error('Another signature is waiting: finish or cancel it first'));
    return new Promise<string>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
      this.current = { ...request, id: this.#next++, phase: 'review', error: null, hash: null, chainStatus: null };
    });
  }

  /** The dialog's "Sign and submit": unlocks with `password` when the key is locked, then signs. */
  async approve(password: string): Promise<void> {
    const request = this.current;
    if (!request || request.phase !== 'review') return;
    const vault = session.wallet.vault;
    request.error = null;
    try {
      if (!vault.isUnlocked(request.signer)) {
        request.phase = 'unlocking';
        await vault.unlock(request.signer, password);
      }
      const signature = vault.sign(request.signer, hexToU8a(request.built.signerPayloadHex));
      request.phase = 'submitting';
      this.#resolve?.(signature);
      this.#resolve = this.#reject = null;
    } catch (error) {
      request.phase = 'review';
      request.error = errorText(error);
    }
  }

  /** Cancel before signing; close after a failure. */
  dismiss(): void {
    const request = this.current;
    if (!request) return;
    if (request.phase === 'review' || request.phase === 'unlocking') {
      this.#reject?.(new SignatureCancelledError());
      this.#resolve = this.#reject = null;
      this.current = null;
    } else if (request.phase === 'failed') {
      this.current = null;
    }
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
 * Runs one mutation through Build → sign dialog → Submit → status, signed by `call.body.address`
 * (an account of this wallet). Throws ApiError (refused at build or submit),
 * SignatureCancelledError, ExtrinsicFailedError (the chain's error) or a NetworkError.
 */
export async function transact(title: string, call: MutationRequest, options: TransactOptions = {}): Promise<FlowResult> {
  const client = connection.client;
  const baseUrl = client.baseUrl;
  const signer = typeof call.body.address === 'string' ? call.body.address : '';
  if (!session.account(signer)) throw new Error('Choose an account of this wallet to sign with (Accounts page)');
  const vault = session.wallet.vault;
  try {
    const result = await runExtrinsic(
      client,
      call,
      async (built, decoded) => {
        if (options.preapproved && vault.isUnlocked(signer)) return vault.sign(signer, hexToU8a(built.signerPayloadHex));
        return signing.ask({ title, signer, decoded, built, baseUrl, series: options.series ?? null });
      },
      {
        onProgress: (p) => signing.progress(p),
        onSubmitted: (hash, decoded) => txlog.add(baseUrl, hash, title, decoded)
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
      async (built) => u8aToHex(pair.sign(hexToU8a(built.signerPayloadHex), { withType: true })),
      { onSubmitted: (hash, decoded) => txlog.add(client.baseUrl, hash, title, decoded, DEV_KEY_NOTE) }
    );
    connection.changed();
    notices.add('success', `Funded with ${amount} from ${DEV_FUNDER_URI} (signed with its public development key)`);
    return result;
  } finally {
    pair.lock();
  }
}
