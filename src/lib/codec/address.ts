// Canonical account addresses: SS58 for 32-byte Substrate keys, lower-case 0x form for Ethereum.
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { fromHex, toHex } from './hash';
import { LruCache } from './lru';

/** The generic Substrate SS58 prefix; the ledger's canonical addresses use it. */
export const SS58_PREFIX = 42;

const PUBLIC_KEY_HEX_RE = /^0x[0-9a-fA-F]{64}$/;
const ETHEREUM_RE = /^0x[0-9a-fA-F]{40}$/;
// Base58 alphabet; keeps obviously foreign strings away from the SS58 decoder.
const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;

// SS58 (base58 + blake2b checksum) costs tens of µs per address, and the same few accounts recur in
// every call, event and query, so both directions are memoised. Both are pure functions of their
// key, and only successes are stored (junk input cannot evict real addresses). Bounded LRU.
const SS58_CACHE_SIZE = 4096;
/**
 * SS58 string (any prefix) → its 32-byte account key. The arrays are shared between callers of
 * this module: read-only here, and `publicKeyOf` hands out copies.
 */
const decodeCache = new LruCache<string, Uint8Array>(SS58_CACHE_SIZE);
/** `<public key hex>/<prefix>` → SS58 address (strings are immutable, so sharing is safe). */
const encodeCache = new LruCache<string, string>(SS58_CACHE_SIZE);

/** Sizes of the SS58 memos, for tests and diagnostics. */
export function ss58CacheSizes(): { decode: number; encode: number } {
  return { decode: decodeCache.size, encode: encodeCache.size };
}

/** Empties the SS58 memos (tests). */
export function clearSs58Caches(): void {
  decodeCache.clear();
  encodeCache.clear();
}

/** `encodeAddress(pk, prefix)`, memoised for integer prefixes. `pk` must be 32 bytes. */
function encodeCached(pk: Uint8Array, prefix: number): string {
  // A non-integer prefix is left to encodeAddress (which rejects or coerces it) and never cached.
  if (!Number.isInteger(prefix)) return encodeAddress(pk, prefix);
  const cacheKey = `${toHex(pk)}/${prefix}`;
  let address = decodeCacheHitOrUndefined(encodeCache, cacheKey);
  if (address === undefined) {
    address = encodeAddress(pk, prefix);
    encodeCache.set(cacheKey, address);
  }
  return address;
}

export class InvalidAddressError extends Error {
  readonly input: string;

  constructor(input: unknown) {
    super(`Invalid address: ${String(input)}`);
    this.name = 'InvalidAddressError';
    this.input = String(input);
  }
}

/** True iff `addr` has the shape of an Ethereum address (`0x` + 40 hex, any case). */
export function isEthereumAddress(addr: unknown): addr is string {
  return typeof addr === 'string' && ETHEREUM_RE.test(addr);
}

/** SS58 form of a 32-byte public key. */
export function addressFromPublicKey(pk: Uint8Array, prefix: number = SS58_PREFIX): string {
  if (!(pk instanceof Uint8Array) || pk.length !== 32) {
    throw new InvalidAddressError(pk instanceof Uint8Array ? `public key of ${pk.length} bytes` : pk);
  }
  return encodeAddress(pk, prefix);
}

/** The 32-byte key of a Substrate address (SS58 of any prefix, or 0x + 64 hex); null otherwise. */
function substrateKeyOf(input: string): Uint8Array | null {
  if (PUBLIC_KEY_HEX_RE.test(input)) return fromHex(input);
  if (!BASE58_RE.test(input)) return null;
  try {
    const key = decodeAddress(input);
    // Only account ids: SS58 also encodes 1..8-byte indices and 33-byte ECDSA keys.
    return key.length === 32 ? key : null;
  } catch {
    return null;
  }
}

/**
 * The canonical `Address` of `input`: SS58 with `prefix` for a Substrate account, lower-case
 * `0x` + 40 hex for an Ethereum one. Throws `InvalidAddressError` for anything else.
 */
export function normalizeAddress(input: string, prefix: number = SS58_PREFIX): string {
  if (typeof input !== 'string') throw new InvalidAddressError(input);
  if (ETHEREUM_RE.test(input)) return input.toLowerCase();
  const key = substrateKeyOf(input);
  if (!key) throw new InvalidAddressError(input);
  return encodeAddress(key, prefix);
}

/** True iff `normalizeAddress` accepts `input`. */
export function isValidAddress(input: unknown): input is string {
  if (typeof input !== 'string') return false;
  return ETHEREUM_RE.test(input) || substrateKeyOf(input) !== null;
}

/** The 32-byte public key behind a Substrate address; Ethereum addresses have none. */
export function publicKeyOf(addr: string): Uint8Array {
  const key = typeof addr === 'string' ? substrateKeyOf(addr) : null;
  if (!key) throw new InvalidAddressError(addr);
  return key;
}
