// Addresses compared by their public key, whatever SS58 prefix a service writes them in (a
// remote chain may answer in its own prefix; the wallet keeps prefix 42).
import { u8aEq } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';

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
