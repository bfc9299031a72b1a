// Hashing and hex helpers shared by every byte-exact module.
import { blake2AsU8a } from '@polkadot/util-crypto';

const HEX_RE = /^0x(?:[0-9a-fA-F]{2})*$/;
const HEX_DIGITS = '0123456789abcdef';

/** blake2b with a 32-byte digest (Substrate's `blake2_256`). */
export function blake2b256(data: Uint8Array): Uint8Array {
  return blake2AsU8a(data, 256);
}

/** `0x` + lower-case hex of `u8a`. */
export function toHex(u8a: Uint8Array): string {
  let out = '0x';
  for (const byte of u8a) out += HEX_DIGITS[byte >> 4] + HEX_DIGITS[byte & 15];
  return out;
}

/** Bytes of a `0x`-prefixed hex string of even length (any case); throws on anything else. */
export function fromHex(hex: string): Uint8Array {
  // The prefix is required: a bare digit string is ambiguous with decimal numbers.
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) throw new Error(`Invalid hex: ${String(hex)}`);
  const out = new Uint8Array((hex.length - 2) / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16);
  return out;
}

/** True iff `hex` is `0x` followed by whole bytes of hex (any case). */
export function isHex(hex: unknown): hex is string {
  return typeof hex === 'string' && HEX_RE.test(hex);
}
