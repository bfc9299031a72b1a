// Canonical account addresses: SS58 for 32-byte Substrate keys, lower-case 0x form for Ethereum.
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { MAX_ADDRESS_LENGTH, quote } from '../limits';
import { blake2b256, fromHex } from './hash';
import { LruCache } from './lru';

/** The generic Substrate SS58 prefix; the ledger's canonical addresses use it. */
export const SS58_PREFIX = 42;

const PUBLIC_KEY_HEX_RE = /^0x[0-9a-fA-F]{64}$/;
const ETHEREUM_RE = /^0x[0-9a-fA-F]{40}$/;
// Base58 alphabet; keeps obviously foreign strings away from the SS58 decoder.
const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;

// SS58 (base58 + blake2b checksum) costs tens of µs per address, and the same accounts recur in
// every call, event and query, so both directions are memoised. Both are pure functions of their
// cache key, and only successes are stored, so junk input cannot crowd out real addresses.
const SS58_CACHE_SIZE = 4096;
/** The largest SS58 prefix (14 bits); encodeAddress rejects anything above it. */
const MAX_SS58_PREFIX = 16383;
/**
 * SS58 string (any prefix) → its 32-byte account key. The arrays are shared by every lookup, so
 * they are read-only inside this module and `publicKeyOf` hands out copies.
 */
const decodeCache = new LruCache<string, Uint8Array>(SS58_CACHE_SIZE);
/**
 * (public key, prefix) → SS58 address; strings are immutable, so sharing them is safe. The map key
 * is the 32 key bytes and the prefix as 33 UTF-16 code units: unique per pair, and far cheaper to
 * build and hash than hex (see `encodeCacheKey`).
 */
const encodeCache = new LruCache<string, string>(SS58_CACHE_SIZE);
const encodeKeyCodes: number[] = new Array<number>(33).fill(0);

function encodeCacheKey(pk: Uint8Array, prefix: number): string {
  for (let i = 0; i < 32; i++) encodeKeyCodes[i] = pk[i];
  encodeKeyCodes[32] = prefix;
  return String.fromCharCode.apply(null, encodeKeyCodes);
}

/** Entries in the SS58 memos (tests, diagnostics). */
export function ss58CacheSizes(): { decode: number; encode: number } {
  return { decode: decodeCache.size, encode: encodeCache.size };
}

/** Empties the SS58 memos (tests). */
export function clearSs58Caches(): void {
  decodeCache.clear();
  encodeCache.clear();
}

export class InvalidAddressError extends Error {
  readonly input: string;

  constructor(input: unknown) {
    // Quoted, not repeated whole: the input may be megabytes long.
    super(`Invalid address: ${quote(input)}`);
    this.name = 'InvalidAddressError';
    this.input = quote(input);
  }
}

/** True iff `addr` has the shape of an Ethereum address (`0x` + 40 hex, any case). */
export function isEthereumAddress(addr: unknown): addr is string {
  return typeof addr === 'string' && ETHEREUM_RE.test(addr);
}

/** `encodeAddress(pk, prefix)` of a 32-byte key, memoised for the valid range of prefixes. */
function encodeKey(pk: Uint8Array, prefix: number): string {
  // Anything else is left to encodeAddress to reject (or coerce) exactly as before, uncached.
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > MAX_SS58_PREFIX) return encodeAddress(pk, prefix);
  const cacheKey = encodeCacheKey(pk, prefix);
  let address = encodeCache.get(cacheKey);
  if (address === undefined) {
    address = encodeAddress(pk, prefix); // throws for a reserved prefix: nothing is cached
    encodeCache.set(cacheKey, address);
  }
  return address;
}

/** SS58 form of a 32-byte public key. */
export function addressFromPublicKey(pk: Uint8Array, prefix: number = SS58_PREFIX): string {
  if (!(pk instanceof Uint8Array) || pk.length !== 32) {
    throw new InvalidAddressError(pk instanceof Uint8Array ? `public key of ${pk.length} bytes` : pk);
  }
  return encodeKey(pk, prefix);
}

/**
 * The 32-byte key of a Substrate address (SS58 of any prefix, or 0x + 64 hex); null otherwise.
 * The array may be shared with the memo: do not mutate it or return it to callers.
 */
function substrateKeyOf(input: string): Uint8Array | null {
  if (PUBLIC_KEY_HEX_RE.test(input)) return fromHex(input);
  // Before any SS58 work (even the cache's hashing): base58 decoding is quadratic in the length.
  if (input.length > MAX_ADDRESS_LENGTH) return null;
  const cached = decodeCache.get(input);
  if (cached !== undefined) return cached;
  if (!BASE58_RE.test(input)) return null;
  try {
    const key = decodeAddress(input);
    // Only account ids: SS58 also encodes 1..8-byte indices and 33-byte ECDSA keys.
    if (key.length !== 32) return null;
    decodeCache.set(input, key);
    return key;
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
  return encodeKey(key, prefix);
}

/** True iff `normalizeAddress` accepts `input`. */
export function isValidAddress(input: unknown): input is string {
  if (typeof input !== 'string') return false;
  return ETHEREUM_RE.test(input) || substrateKeyOf(input) !== null;
}

/** The 32-byte public key behind a Substrate address (a fresh copy); Ethereum addresses have none. */
export function publicKeyOf(addr: string): Uint8Array {
  const key = typeof addr === 'string' ? substrateKeyOf(addr) : null;
  if (!key) throw new InvalidAddressError(addr);
  return key.slice();
}

/** frontier's HashedAddressMapping prefix: an Ethereum address's Substrate account is blake2_256("evm:" ++ address). */
const EVM_ACCOUNT_PREFIX = new TextEncoder().encode('evm:');

/**
 * The 32-byte Substrate account the chain files an address under (what its CrossAccountId orders
 * and maps by): a key's own bytes, or for an Ethereum address its HashedAddressMapping account.
 */
export function substrateAccountOf(addr: string): Uint8Array {
  if (!ETHEREUM_RE.test(addr)) return publicKeyOf(addr);
  const input = new Uint8Array(EVM_ACCOUNT_PREFIX.length + 20);
  input.set(EVM_ACCOUNT_PREFIX);
  input.set(fromHex(addr), EVM_ACCOUNT_PREFIX.length);
  return blake2b256(input);
}
