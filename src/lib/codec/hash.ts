// Hashing and hex helpers shared by every byte-exact module.
import { blake2AsU8a } from '@polkadot/util-crypto';

const HEX_RE = /^0x(?:[0-9a-fA-F]{2})*$/;
const HEX_DIGITS = '0123456789abcdef';

// Lookup tables instead of parseInt/slice per byte: fromHex is ~30x faster on 10 KB. No Buffer, so
// the same code runs in Node, pages and the service worker.

/** Value of each hex digit by char code (either case); 255 for every other code below 128. */
const NIBBLE = new Uint8Array(128).fill(255);
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
  const out = new Uint8Array((hex.length - 2) / 2);
  for (let i = 0, j = 2; i < out.length; i++, j += 2) {
    const a = hex.charCodeAt(j);
    const b = hex.charCodeAt(j + 1);
    // Codes of 128 and above are outside the table, so they are rejected before the lookup.
    const hi = a < 128 ? NIBBLE[a] : 255;
    const lo = b < 128 ? NIBBLE[b] : 255;
    if ((hi | lo) > 15) throw invalidHex(hex);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** True iff `hex` is `0x` followed by whole bytes of hex (any case). */
export function isHex(hex: unknown): hex is string {
  return typeof hex === 'string' && HEX_RE.test(hex);
}
