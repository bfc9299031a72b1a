// Hashing and hex helpers shared by every byte-exact module.
import { blake2AsU8a } from '@polkadot/util-crypto';

const HEX_RE = /^0x(?:[0-9a-fA-F]{2})*$/;
const HEX_DIGITS = '0123456789abcdef';

// Lookup tables instead of parseInt/slice per byte: on 10 KB fromHex is ~10x and toHex ~8x faster.
// No Buffer, so the same code runs in Node, pages and the service worker.

/**
 * Value of each hex digit by UTF-16 code unit (either case); 255 for every other code unit. 64 KB,
 * so that any `charCodeAt` result indexes it without a range check in the decoding loop.
 */
const NIBBLE = new Uint8Array(0x10000).fill(255);
for (let i = 0; i < 16; i++) {
  NIBBLE[HEX_DIGITS.charCodeAt(i)] = i;
  NIBBLE[HEX_DIGITS.toUpperCase().charCodeAt(i)] = i;
}
/** The two lower-case hex digits of each byte value. */
const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => HEX_DIGITS[b >> 4] + HEX_DIGITS[b & 15]);
/** Char codes of the lower-case hex digits. */
const DIGIT_CODES = Uint8Array.from(HEX_DIGITS, (c) => c.charCodeAt(0));
/** Below this many bytes string concatenation beats filling a buffer and decoding it. */
const TO_HEX_BUFFER_MIN = 64;
let asciiDecoder: TextDecoder | undefined;

/** blake2b with a 32-byte digest (Substrate's `blake2_256`). */
export function blake2b256(data: Uint8Array): Uint8Array {
  return blake2AsU8a(data, 256);
}

/** `0x` + lower-case hex of `u8a`. */
export function toHex(u8a: Uint8Array): string {
  const length = u8a.length;
  if (length < TO_HEX_BUFFER_MIN) {
    let out = '0x';
    for (let i = 0; i < length; i++) out += BYTE_HEX[u8a[i]];
    return out;
  }
  // Long inputs: write the ASCII digits into one buffer and decode it once (no quadratic ropes).
  const ascii = new Uint8Array(2 + length * 2);
  ascii[0] = 48; // '0'
  ascii[1] = 120; // 'x'
  for (let i = 0, j = 2; i < length; i++, j += 2) {
    const byte = u8a[i];
    ascii[j] = DIGIT_CODES[byte >> 4];
    ascii[j + 1] = DIGIT_CODES[byte & 15];
  }
  asciiDecoder ??= new TextDecoder();
  return asciiDecoder.decode(ascii);
}

function invalidHex(hex: unknown): Error {
  return new Error(`Invalid hex: ${String(hex)}`);
}

/** Bytes of a `0x`-prefixed hex string of even length (any case); throws on anything else. */
export function fromHex(hex: string): Uint8Array {
  // The prefix is required: a bare digit string is ambiguous with decimal numbers.
  // Same language as HEX_RE: '0x', then pairs of hex digits, nothing else.
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || hex.charCodeAt(0) !== 48 || hex.charCodeAt(1) !== 120) {
    throw invalidHex(hex);
  }
  const length = (hex.length - 2) / 2;
  const out = new Uint8Array(length);
  // Any non-digit has a table value of 255; OR-ing them all keeps the loop free of branches.
  let invalid = 0;
  for (let i = 0, j = 2; i < length; i++, j += 2) {
    const hi = NIBBLE[hex.charCodeAt(j)];
    const lo = NIBBLE[hex.charCodeAt(j + 1)];
    invalid |= hi | lo;
    out[i] = (hi << 4) | lo;
  }
  if (invalid > 15) throw invalidHex(hex);
  return out;
}

/** True iff `hex` is `0x` followed by whole bytes of hex (any case). */
export function isHex(hex: unknown): hex is string {
  return typeof hex === 'string' && HEX_RE.test(hex);
}
