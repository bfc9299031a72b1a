// Signatures of signer payloads: MultiSignature-style (type byte + 64 bytes), and custodial keys.
import { DEV_PHRASE, Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { ed25519Verify, mnemonicValidate, sr25519Verify } from '@polkadot/util-crypto';
import { InvalidAddressError, isEthereumAddress, publicKeyOf } from './address';
import { fromHex, isHex, toHex } from './hash';

/** MultiSignature variant indices (`0x00` ed25519, `0x01` sr25519, `0x02` ecdsa). */
const ED25519 = 0;
const SR25519 = 1;
const ECDSA = 2;

/** A signature, or its signer, in a form this ledger cannot check. */
export class SignatureFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureFormatError';
  }
}

/** A custodial seed that is neither a BIP-39 mnemonic nor a dev URI; never carries the seed itself. */
export class InvalidSeedError extends Error {
  constructor() {
    super('Invalid seed: expected a BIP-39 mnemonic or a dev URI such as //Alice, //Alice//stash or //Alice///password');
    this.name = 'InvalidSeedError';
  }
}

/** The type byte and 64 signature bytes of `signature`; throws `SignatureFormatError` otherwise. */
function parseSignature(signature: string): { type: number; bytes: Uint8Array } {
  if (!isHex(signature)) throw new SignatureFormatError('Signature must be 0x-prefixed hex of whole bytes');
  const raw = fromHex(signature);
  // An ECDSA MultiSignature is 0x02 + 65 bytes; name the type rather than the length.
  if (raw[0] === ECDSA && raw.length === 66) {
    throw new SignatureFormatError('ECDSA signatures (type 0x02) are not supported: use sr25519 (0x01) or ed25519 (0x00)');
  }
  if (raw.length !== 65) {
    throw new SignatureFormatError(
      `Signature must be 65 bytes (a type byte, 0x01 sr25519 or 0x00 ed25519, then 64 signature bytes), got ${raw.length}`
    );
  }
  if (raw[0] === ECDSA) throw new SignatureFormatError('ECDSA signatures (type 0x02) are not supported: use sr25519 (0x01) or ed25519 (0x00)');
  if (raw[0] !== SR25519 && raw[0] !== ED25519) {
    throw new SignatureFormatError(`Unknown signature type 0x${raw[0].toString(16).padStart(2, '0')}: use sr25519 (0x01) or ed25519 (0x00)`);
  }
  return { type: raw[0], bytes: raw.subarray(1) };
}

function signerKey(address: string): Uint8Array {
  if (isEthereumAddress(address)) {
    throw new SignatureFormatError('Cannot verify a signature of an Ethereum address: sign with a Substrate (sr25519 or ed25519) account');
  }
  try {
    return publicKeyOf(address);
  } catch (err) {
    if (err instanceof InvalidAddressError) throw new SignatureFormatError(`Invalid signer address: ${String(address)}`);
    throw err;
  }
}

/**
 * True iff `signature` (`0x01` + 64 bytes sr25519, or `0x00` + 64 bytes ed25519) signs `message`
 * for `address`. Throws `SignatureFormatError` when the signature or the address has the wrong form.
 */
export function verifySignature(message: Uint8Array, signature: string, address: string): boolean {
  const { type, bytes } = parseSignature(signature);
  const publicKey = signerKey(address);
  try {
    return type === SR25519 ? sr25519Verify(message, bytes, publicKey) : ed25519Verify(message, bytes, publicKey);
  } catch {
    // Malformed signature points make the verifiers throw; they are simply not valid signatures.
    return false;
  }
}

/** The part of a `KeyringPair` that signing needs. */
export interface SigningPair {
  type: string;
  sign(message: Uint8Array): Uint8Array;
}

/** `0x01`/`0x00` + the pair's 64-byte signature of `message`, the form `verifySignature` accepts. */
export function signMessage(pair: SigningPair, message: Uint8Array): string {
  const type = pair.type === 'sr25519' ? SR25519 : pair.type === 'ed25519' ? ED25519 : null;
  if (type === null) throw new SignatureFormatError(`Cannot sign with a ${pair.type} key: only sr25519 and ed25519 are supported`);
  const signature = pair.sign(message);
  if (signature.length !== 64) throw new SignatureFormatError(`The key returned a ${signature.length}-byte signature, expected 64`);
  const out = new Uint8Array(65);
  out[0] = type;
  out.set(signature, 1);
  return toHex(out);
}

// The real service's dev URI rule: one or two hard junctions, then an optional password.
const DEV_URI_RE = /^(\/\/[^/]+){1,2}(\/\/\/[^/]+)?$/;

/**
 * The sr25519 key of a custodial seed: a BIP-39 mnemonic, or a dev URI (`//Alice`, `//Alice//stash`,
 * `//Alice///pw`) resolved against the standard dev phrase. Call `cryptoWaitReady()` first.
 */
export function pairFromSeed(seed: string): KeyringPair {
  const keyring = new Keyring({ type: 'sr25519' });
  let uri: string | null = null;
  if (typeof seed === 'string') {
    if (DEV_URI_RE.test(seed)) uri = DEV_PHRASE + seed;
    else if (mnemonicValidate(seed)) uri = seed;
  }
  if (uri === null) throw new InvalidSeedError();
  try {
    return keyring.addFromUri(uri);
  } catch {
    // The keyring's own message could quote the seed; it is deliberately dropped.
    throw new InvalidSeedError();
  }
}
