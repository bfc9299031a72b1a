// A connecting app's `signPayload` and `signRaw`, on Opalite's side. The payload goes through the
// one signing rule (codec/signing-rule.ts) against this sandbox's own chain: its extension list
// must be exactly the chain's, its genesis inside the signed bytes, its call decoded completely;
// the bytes signed are rebuilt from it here, never a hex the app sent. The signer must be one of
// the accounts the person shared with this app, and of this wallet. The person reads the call,
// its dry run, and decides in the app's own sign dialog, marked as a request from the app's
// origin; only the signature goes back, the key stays in this page. When the app's access ends
// (revoked, bye, window closed) the dialog closes and no signature is made or returned.
import { apiFetch } from '../state/transport';
import { sameAddress } from '../client/address';
import { RestClient } from '../client/client';
import { ApiError as ServiceError, SignatureCancelledError, errorText } from '../client/errors';
import { PayloadError, type SignerPayloadJSON } from '../codec/payload';
import { checkSignerPayload, rawSigningMessage } from '../codec/signing-rule';
import { session } from '../state/session.svelte';
import { SANDBOX_PATH } from '../state/settings.svelte';
import { SignAbortedError, SignRefusedError, checkOnChain, extrinsicSubject, signing } from '../state/signing.svelte';
import type { SignFailure } from './protocol';

export { SignAbortedError, SignRefusedError };

/** Most bytes of `signRaw` data signed (a message a person reads in the dialog, not a file). */
export const MAX_RAW_SIGN_BYTES = 16 * 1024;

export interface SignForAppOptions {
  /** The accounts the person shared with this app (any spelling of each). */
  accounts: readonly string[];
  /** Aborts when the app's access ends: the dialog closes, the promise rejects, nothing is signed. */
  signal: AbortSignal;
}

function sandboxClient(): RestClient {
  return new RestClient({ baseUrl: `${location.origin}${SANDBOX_PATH}`, fetch: apiFetch });
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new SignAbortedError();
}

/**
 * The wallet's spelling of `address` when it is an account the person shared with this app and
 * an account of this wallet (an account is its public key, however it is spelled).
 */
async function sharedAccount(address: unknown, shared: readonly string[]): Promise<string> {
  if (typeof address !== 'string' || address.length > 66) throw new SignRefusedError('The address to sign with is not an address');
  const shown = address.slice(0, 66);
  if (!shared.some((account) => sameAddress(account, address))) throw new SignRefusedError(`${shown} is not an account you shared with this app`);
  const wallet = await session.wallet.vault.list();
  const account = wallet.find((entry) => sameAddress(entry.address, address));
  if (!account) throw new SignRefusedError(`${shown} is not an account of this Opalite wallet`);
  return account.address;
}

/** Asks the person to sign `payload` for `origin`; resolves to the MultiSignature hex. */
export async function signForApp(origin: string, payload: SignerPayloadJSON, options: SignForAppOptions): Promise<string> {
  const { signal } = options;
  throwIfAborted(signal);
  const client = sandboxClient();
  const checked = await checkOnChain(client, (chain) => checkSignerPayload(payload, chain));
  const signer = await sharedAccount(payload.address, options.accounts);
  const decoded = await client.decode(payload);
  throwIfAborted(signal);
  const subject = extrinsicSubject({ signerPayloadJSON: payload, signerPayloadHex: checked.messageHex }, decoded, checked);
  const signature = await signing.ask({ title: `${origin} asks you to sign`, signer, client, origin, subject, submits: false }, { signal });
  // The app submits it, not Opalite: the dialog's work ends with the signature.
  signing.close();
  // A signature made as access ended stays here.
  throwIfAborted(signal);
  return signature;
}

/**
 * polkadot{.js}'s `signRaw` for `origin`: only `<Bytes>…</Bytes>`-wrapped data is signed (data
 * that is not wrapped is wrapped), shown as text (or hex when not printable), never a
 * transaction. Resolves to the MultiSignature hex.
 */
export async function signRawForApp(origin: string, raw: { address: string; data: string; type?: 'bytes' | 'payload' }, options: SignForAppOptions): Promise<string> {
  const { signal } = options;
  throwIfAborted(signal);
  let message;
  try {
    message = rawSigningMessage(raw, MAX_RAW_SIGN_BYTES);
  } catch (error) {
    throw new SignRefusedError(`Opalite will not sign this: ${errorText(error)}`);
  }
  const signer = await sharedAccount(raw.address, options.accounts);
  const subject = { kind: 'raw' as const, raw: message, message: message.message };
  const signature = await signing.ask({ title: `${origin} asks you to sign a message`, signer, client: sandboxClient(), origin, subject, submits: false }, { signal });
  signing.close();
  throwIfAborted(signal);
  return signature;
}

/** What the app is told when signing did not happen. */
export function signFailureOf(error: unknown): { reason: SignFailure; message: string } {
  if (error instanceof SignatureCancelledError) return { reason: 'cancelled', message: 'The person cancelled: nothing was signed' };
  if (error instanceof ServiceError || error instanceof PayloadError) return { reason: 'invalid', message: errorText(error) };
  return { reason: 'refused', message: errorText(error) };
}
