// A connecting app's `signPayload`, on Opalite's side: the payload must be for this sandbox's
// chain (a signature for another chain, a real one, is never made here) and name an account of
// this wallet; the sandbox decodes its call for the sign dialog, and the bytes signed are encoded
// here from the payload itself (never a hex the app sent). The person unlocks the key and decides
// in the app's own sign dialog; only the signature goes back, the key stays in this page.
import { apiFetch } from '../browser/api';
import { RestClient } from '../client/client';
import { ApiError as ServiceError, SignatureCancelledError, errorText } from '../client/errors';
import { normalizeAddress } from '../codec/address';
import { PayloadError, encodeExtrinsicPayload, signerPayloadHex, type SignerPayloadJSON } from '../codec/payload';
import { session } from '../state/session.svelte';
import { SANDBOX_PATH } from '../state/settings.svelte';
import { signing } from '../state/signing.svelte';
import type { SignFailure } from './protocol';

/** Why Opalite will not even ask the person: the message says what to change. */
export class SignRefusedError extends Error {
  override readonly name = 'SignRefusedError';
}

/** The sandbox account that `address` names, if it is one of this wallet's. */
async function walletAccount(address: string): Promise<string> {
  let canonical: string;
  try {
    canonical = normalizeAddress(address);
  } catch {
    throw new SignRefusedError('payload.address is not an address');
  }
  const accounts = await session.wallet.vault.list();
  if (!accounts.some((account) => account.address === canonical)) throw new SignRefusedError(`${canonical} is not an account of this Opalite wallet`);
  return canonical;
}

/** Asks the person to sign `payload` for `origin`; resolves to the MultiSignature hex. */
export async function signForApp(origin: string, payload: SignerPayloadJSON): Promise<string> {
  const client = new RestClient({ baseUrl: `${location.origin}${SANDBOX_PATH}`, fetch: apiFetch });
  const chain = await client.chainProperties();
  if (!chain.genesisHash || payload.genesisHash.toLowerCase() !== chain.genesisHash.toLowerCase()) {
    throw new SignRefusedError('The payload is for another chain: Opalite signs only for its own sandbox (genesisHash differs)');
  }
  const signer = await walletAccount(payload.address);
  const decoded = await client.decode(payload);
  const built = { signerPayloadJSON: payload, signerPayloadHex: signerPayloadHex(encodeExtrinsicPayload(payload)) };
  const signature = await signing.ask({ title: `${origin} asks you to sign`, signer, decoded, built, baseUrl: client.baseUrl, series: null, submits: false });
  // The app submits it, not Opalite: the dialog's work ends with the signature.
  signing.close();
  return signature;
}

/** What the app is told when signing did not happen. */
export function signFailureOf(error: unknown): { reason: SignFailure; message: string } {
  if (error instanceof SignatureCancelledError) return { reason: 'cancelled', message: 'The person cancelled: nothing was signed' };
  if (error instanceof ServiceError || error instanceof PayloadError) return { reason: 'invalid', message: errorText(error) };
  return { reason: 'refused', message: errorText(error) };
}
