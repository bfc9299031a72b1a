// Signature checks of submitted payloads. A host may check off the event loop (a worker pool);
// by default the synchronous verifier runs here.
import { addressFromPublicKey, publicKeyOf } from '../../codec/address';
import { verifySignature } from '../../codec/signature';
import type { Address } from '../types';
import { TransactionError } from './errors';

/** Does `signature` sign `message` for `signer`? May throw for a signature or signer it cannot read. */
export type SignatureVerifier = (message: Uint8Array, signature: string, signer: string) => Promise<boolean>;

export const verifyInline: SignatureVerifier = async (message, signature, signer) => verifySignature(message, signature, signer);

/**
 * The canonical address (SS58, prefix 42) of a signer spelled as SS58 of any prefix or as a 0x
 * public key of any case: everything the ledger keys by a signer uses this form.
 */
export function canonicalSigner(address: string): Address {
  try {
    return addressFromPublicKey(publicKeyOf(address));
  } catch {
    throw new TransactionError('BadSignature', 'signerPayloadJSON.address is not a Substrate account: expected SS58 or 0x and 64 hex digits of a public key');
  }
}

/** `canonicalSigner` for Substrate accounts; anything else (an Ethereum address) as written. */
export function canonicalAccount(address: string): Address {
  try {
    return addressFromPublicKey(publicKeyOf(address));
  } catch {
    return address;
  }
}

/** Throws BadSignature unless `signature` signs `message` for `signer`. */
export async function checkSignature(verify: SignatureVerifier, message: Uint8Array, signature: string, signer: Address): Promise<void> {
  let valid: boolean;
  try {
    valid = await verify(message, signature, signer);
  } catch (e) {
    throw new TransactionError('BadSignature', e instanceof Error ? e.message : String(e));
  }
  if (!valid) throw new TransactionError('BadSignature', 'Signature does not verify for the payload and the signer address');
}
