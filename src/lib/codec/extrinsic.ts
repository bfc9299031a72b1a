// Signed extrinsics in the v4 layout, their hash, and their length before they are signed.
import { decodeEra } from './era';
import { blake2b256, toHex } from './hash';
import { compactBig, compactU32, concatBytes } from './scale';

/** Version byte of a signed v4 extrinsic: 0x80 (signed) | 4. */
const SIGNED_V4 = 0x84;
/** MultiAddress::Id: the signer is given by its 32-byte account id. */
const MULTI_ADDRESS_ID = 0x00;
/** A MultiSignature: type byte + 64 bytes. */
const SIGNATURE_LENGTH = 65;

/** Parts of a signed extrinsic that cannot be encoded. */
export class ExtrinsicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtrinsicError';
  }
}

export interface SignedExtrinsicInput {
  /** The signer's 32-byte public key. */
  publicKey: Uint8Array;
  /** MultiSignature: type byte (0x01 sr25519, 0x00 ed25519) + 64 bytes. */
  signature: Uint8Array;
  /** SCALE era, as signed. */
  era: Uint8Array;
  nonce: number;
  tip: bigint;
  /** SCALE call bytes. */
  method: Uint8Array;
}

/**
 * compact(length) ‖ 0x84 ‖ 0x00 ‖ public key ‖ signature ‖ era ‖ compact(nonce) ‖ compact(tip) ‖ method:
 * what a Substrate node receives for the extensions this ledger advertises.
 */
export function encodeSignedExtrinsic(input: SignedExtrinsicInput): Uint8Array {
  const { publicKey, signature, era, nonce, tip, method } = input;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) throw new ExtrinsicError('Extrinsic signer public key must be 32 bytes');
  if (!(signature instanceof Uint8Array) || signature.length !== SIGNATURE_LENGTH) {
    throw new ExtrinsicError('Extrinsic signature must be 65 bytes (type byte + 64 bytes)');
  }
  if (!(method instanceof Uint8Array)) throw new ExtrinsicError('Extrinsic method must be bytes');
  try {
    decodeEra(era);
  } catch (err) {
    throw new ExtrinsicError(`Extrinsic era is invalid: ${(err as Error).message}`);
  }
  let nonceBytes: Uint8Array;
  let tipBytes: Uint8Array;
  try {
    nonceBytes = compactU32.enc(nonce);
    tipBytes = compactBig.enc(BigInt(tip));
  } catch (err) {
    throw new ExtrinsicError(`Extrinsic nonce or tip is invalid: ${(err as Error).message}`);
  }
  const body = concatBytes([
    new Uint8Array([SIGNED_V4, MULTI_ADDRESS_ID]),
    publicKey,
    signature,
    era,
    nonceBytes,
    tipBytes,
    method
  ]);
  return concatBytes([compactU32.enc(body.length), body]);
}

/** The extrinsic hash: `0x` + blake2b-256 of the whole encoded extrinsic (length prefix included). */
export function extrinsicHash(bytes: Uint8Array): string {
  return toHex(blake2b256(bytes));
}

function compactLength(value: number | bigint): number {
  const n = BigInt(value);
  if (n < 0n) throw new ExtrinsicError(`Compact value must not be negative: ${n}`);
  if (n < 1n << 6n) return 1;
  if (n < 1n << 14n) return 2;
  if (n < 1n << 30n) return 4;
  return 1 + Math.ceil(n.toString(16).length / 2);
}

/** Length of `encodeSignedExtrinsic`'s output for these parts, before any signature exists (fees). */
export function signedExtrinsicLength(methodLength: number, eraLength: number, nonce: number, tip: number | bigint): number {
  const body = 2 + 32 + SIGNATURE_LENGTH + eraLength + compactLength(nonce) + compactLength(tip) + methodLength;
  return compactLength(body) + body;
}
