// Addresses compared by their public key, whatever SS58 prefix a service writes them in (a
// remote chain may answer in its own prefix; the wallet keeps prefix 42), and an address a person
// typed, checked before anything is built.
import { u8aEq } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';
import { quote } from '../limits';
import { isValidAddress } from '../codec/address';

function publicKey(address: string): Uint8Array | null {
  try {
    return decodeAddress(address);
  } catch {
    return null;
  }
}

export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  const [x, y] = [publicKey(a), publicKey(b)];
  return !!x && !!y && u8aEq(x, y);
}

/**
 * `value` trimmed, when it is an account address as the service takes it (SS58 of any prefix,
 * `0x` + 64 hex, or an Ethereum address); otherwise an error in words, led by `label` (the name
 * the person sees on the field) when given.
 */
export function accountAddress(value: string, label?: string): string {
  const text = value.trim();
  if (isValidAddress(text)) return text;
  throw new Error(`${label ? `${label}: ` : ''}"${quote(text)}" is not an account address`);
}
