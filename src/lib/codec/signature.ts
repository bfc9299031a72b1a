// Signatures of signer payloads: MultiSignature-style (type byte + 64 bytes), and custodial keys.
import { quote } from '../limits';
import { DEV_PHRASE, Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { Keypair } from '@polkadot/util-crypto/types';
import {
  ed25519Verify,
  keyExtractSuri,
  keyFromPath,
  mnemonicToMiniSecret,
  mnemonicValidate,
  sr25519PairFromSeed,
  sr25519Verify
} from '@polkadot/util-crypto';
import { isReady as wasmIsReady, ed25519Verify as wasmEd25519Verify, sr25519Verify as wasmSr25519Verify } from '@polkadot/wasm-crypto';
import { InvalidAddressError, isEthereumAddress, publicKeyOf } from './address';
import { fromHex, isHex, toHex } from './hash';
import { LruCache } from './lru';

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
    if (err instanceof InvalidAddressError) throw new SignatureFormatError(`Invalid signer address: ${quote(address)}`);
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
    if (message instanceof Uint8Array && wasmIsReady()) return wasmVerify(type, message, bytes, publicKey);
    // No wasm (not initialised yet, or failed to load): the pure-JS verifiers, as before.
    return type === SR25519 ? sr25519Verify(message, bytes, publicKey) : ed25519Verify(message, bytes, publicKey);
  } catch {
    // Malformed signature points make the verifiers throw; they are simply not valid signatures.
    return false;
  }
}

/**
 * The wasm verifiers of `@polkadot/wasm-crypto` (schnorrkel / ed25519 in Rust): about 7x faster
 * than `@polkadot/util-crypto` 14's sr25519Verify, which is pure JS (@scure/sr25519). util-crypto's
 * ed25519Verify already takes this wasm path once wasm is ready; calling it directly only saves the
 * argument conversions. `signature` is 64 bytes and `publicKey` 32 (checked by the callers).
 */
function wasmVerify(type: number, message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (type !== SR25519) return wasmEd25519Verify(signature, message, publicKey);
  // schnorrkel accepts the identity point (all-zero key) as a public key, and for it any R = s·B
  // "verifies": anyone could sign for that address. @scure/sr25519 rejects it; so do we.
  if (isAllZero(publicKey)) return false;
  return wasmSr25519Verify(signature, message, publicKey);
}

function isAllZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
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
// The dev URIs whose keys are memoised: no password junction, so every one of them is derived from
// the published DEV_PHRASE alone and is as public as //Alice. Nothing secret is ever cached: not a
// mnemonic, not a password, not a key derived from either.
const PUBLIC_DEV_URI_RE = /^(\/\/[^/]+){1,2}$/;
const DEV_KEY_CACHE_SIZE = 64;
/** Public dev URI → its sr25519 key material. Never handed out: each pair gets copies. */
const devKeyCache = new LruCache<string, Readonly<Keypair>>(DEV_KEY_CACHE_SIZE);
// Only builds pairs (createFromPair does not add them to the keyring), so it holds nothing.
const devKeyring = new Keyring({ type: 'sr25519' });

/** Entries in the dev key memo (tests, diagnostics). */
export function devKeyCacheSize(): number {
  return devKeyCache.size;
}

/**
 * The sr25519 key of a public dev URI, memoised: what `Keyring.createFromUri` derives for it
 * (the same util-crypto steps: SURI parse, mini secret of the phrase, hard derivation path).
 */
function devKeypair(devUri: string): Readonly<Keypair> {
  let keypair = devKeyCache.get(devUri);
  if (keypair === undefined) {
    const { password, path, phrase } = keyExtractSuri(DEV_PHRASE + devUri);
    keypair = keyFromPath(sr25519PairFromSeed(mnemonicToMiniSecret(phrase, password)), path, 'sr25519');
    devKeyCache.set(devUri, keypair);
  }
  return keypair;
}

/**
 * The sr25519 key of a custodial seed: a BIP-39 mnemonic, or a dev URI (`//Alice`, `//Alice//stash`,
 * `//Alice///pw`) resolved against the standard dev phrase. Call `cryptoWaitReady()` first.
 *
 * Dev URIs without a password are derived once and memoised (deriving costs milliseconds). Every
 * call still returns a new pair over its own copies of the key bytes: signing does not mutate a pair,
 * but `lock()`, `setMeta()`, `decodePkcs8()` and writes into `publicKey` would, so no two callers
 * ever share one. Mnemonics and password URIs are derived per call and never kept.
 */
export function pairFromSeed(seed: string): KeyringPair {
  let uri: string | null = null;
  if (typeof seed === 'string') {
    if (DEV_URI_RE.test(seed)) uri = DEV_PHRASE + seed;
    else if (mnemonicValidate(seed)) uri = seed;
  }
  if (uri === null) throw new InvalidSeedError();
  try {
    if (PUBLIC_DEV_URI_RE.test(seed)) {
      const { publicKey, secretKey } = devKeypair(seed);
      return devKeyring.createFromPair({ publicKey: publicKey.slice(), secretKey: secretKey.slice() }, {}, 'sr25519');
    }
    return new Keyring({ type: 'sr25519' }).addFromUri(uri);
  } catch {
    // The keyring's own message could quote the seed; it is deliberately dropped.
    throw new InvalidSeedError();
  }
}
