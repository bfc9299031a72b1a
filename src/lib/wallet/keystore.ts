// Keystores: the polkadot{.js} account JSON (pkcs8, scrypt + xsalsa20-poly1305, version 3), the
// one format the wallet stores, imports and exports. Pure functions: no storage, no state.
//
// Security rules kept here:
// - a seed phrase only passes through: it is turned into a key pair, encrypted, and dropped;
//   it never appears in a result, an error message or a log;
// - secret bytes this module owns (mini-secret, decrypted pkcs8, secret key) are zeroed as soon
//   as they are no longer needed; a pair from `unlockKeystore` zeroes its secret key on `lock()`;
// - every input from outside is validated before use, and every failure is a `WalletError` with
//   a message for the person using the app (never the input itself, which may be a secret).
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair, KeyringPair$Json } from '@polkadot/keyring/types';
import { hexToU8a, isHex, u8aEq } from '@polkadot/util';
import {
  base64Decode,
  base64Encode,
  cryptoWaitReady,
  decodeAddress,
  ed25519PairFromSeed,
  encodeAddress,
  isBase64,
  jsonDecryptData,
  mnemonicGenerate,
  mnemonicToMiniSecret,
  mnemonicValidate,
  scryptFromU8a,
  signatureVerify,
  sr25519PairFromSeed
} from '@polkadot/util-crypto';
import { WalletError } from './errors';

/** SS58 prefix of the addresses the wallet shows and stores (generic Substrate). */
export const SS58_FORMAT = 42;
/** Minimum length of a password that protects a key in this wallet. */
export const MIN_PASSWORD_LENGTH = 8;
/** Maximum length of an account name. */
export const MAX_NAME_LENGTH = 64;
/** Largest keystore file accepted (a real one is about 1 KB). */
export const MAX_KEYSTORE_BYTES = 256 * 1024;

export type KeyType = 'sr25519' | 'ed25519';

export interface KeystoreMeta {
  name?: string;
  whenCreated?: number;
  [key: string]: unknown;
}

/** A polkadot{.js} account export, as `pair.toJson(password)` produces it. */
export interface KeystoreJson {
  /** SS58 address, prefix 42 once it went through this module. */
  address: string;
  /** base64 of scrypt salt + params (44 bytes), nonce (24), xsalsa20-poly1305 box of the pkcs8. */
  encoded: string;
  encoding: {
    content: ['pkcs8', KeyType];
    type: ['scrypt', 'xsalsa20-poly1305'];
    version: '3';
  };
  meta: KeystoreMeta;
}

const NOT_AN_EXPORT = 'This file is not a polkadot{.js} account export: ';
const ENCRYPTION: ['scrypt', 'xsalsa20-poly1305'] = ['scrypt', 'xsalsa20-poly1305'];
const KEY_TYPES: readonly KeyType[] = ['sr25519', 'ed25519'];
const MNEMONIC_WORD_COUNTS = [12, 15, 18, 21, 24];
// The pkcs8 framing of @polkadot/keyring (pair/defaults.js, generations 1 to 3), which the package
// does not export from its entry point. The round-trip tests against Keyring keep these honest.
const PAIR_HDR = new Uint8Array([48, 83, 2, 1, 1, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32]);
const PAIR_DIV = new Uint8Array([161, 35, 3, 33, 0]);
const PUB_LENGTH = 32;
const SEC_LENGTH = 64;
const SEED_LENGTH = 32;
const SCRYPT_BYTES = 44;
const NONCE_BYTES = 24;
const MAC_BYTES = 16;
// pkcs8 bodies: generation 3 holds the 64-byte secret key, generations 1-2 the 32-byte seed.
const PKCS8_BYTES_GEN3 = PAIR_HDR.length + SEC_LENGTH + PAIR_DIV.length + PUB_LENGTH;
const PKCS8_BYTES_GEN1 = PAIR_HDR.length + SEED_LENGTH + PAIR_DIV.length + PUB_LENGTH;
const ENCODED_BYTES = [PKCS8_BYTES_GEN3, PKCS8_BYTES_GEN1].map((n) => SCRYPT_BYTES + NONCE_BYTES + MAC_BYTES + n);
const PROBE = new TextEncoder().encode('opalite key check');

function keyring(): Keyring {
  return new Keyring({ type: 'sr25519', ss58Format: SS58_FORMAT });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(reason: string): WalletError {
  return new WalletError(NOT_AN_EXPORT + reason);
}

// ---------------------------------------------------------------------------------------------
// Seed phrases

/** Words of a seed phrase, whatever the spacing and case it was typed or pasted with. */
function mnemonicWords(mnemonic: string): string[] {
  return mnemonic.normalize('NFKD').trim().toLowerCase().split(/\s+/).filter(Boolean);
}

function normalizeMnemonic(mnemonic: unknown): string {
  if (typeof mnemonic !== 'string') throw new WalletError('Enter the seed phrase');
  const words = mnemonicWords(mnemonic);
  if (words.length === 0) throw new WalletError('Enter the seed phrase');
  if (!MNEMONIC_WORD_COUNTS.includes(words.length)) {
    throw new WalletError(`A seed phrase has 12, 15, 18, 21 or 24 words; this one has ${words.length}`);
  }
  const phrase = words.join(' ');
  if (!mnemonicValidate(phrase)) {
    throw new WalletError('This seed phrase is not valid: check each word and their order');
  }
  return phrase;
}

/** A new random BIP39 seed phrase (12 words unless told otherwise). Show it once, never store it. */
export function generateMnemonic(words: 12 | 15 | 18 | 21 | 24 = 12): string {
  return mnemonicGenerate(words);
}

/** True when `mnemonic` is a valid BIP39 seed phrase (spacing and case do not matter). */
export function validateMnemonic(mnemonic: string): boolean {
  try {
    normalizeMnemonic(mnemonic);
    return true;
  } catch {
    return false;
  }
}

/** True when `typed` is the same seed phrase as `mnemonic` (for the "confirm your phrase" step). */
export function confirmMnemonic(mnemonic: string, typed: string): boolean {
  if (typeof mnemonic !== 'string' || typeof typed !== 'string') return false;
  const a = mnemonicWords(mnemonic);
  const b = mnemonicWords(typed);
  return a.length > 0 && a.length === b.length && a.every((w, i) => w === b[i]);
}

/** The sr25519 key pair of a seed phrase (no derivation path), as polkadot{.js} derives it. */
function pairFromMnemonic(phrase: string): { publicKey: Uint8Array; secretKey: Uint8Array } {
  const miniSecret = mnemonicToMiniSecret(phrase);
  try {
    return sr25519PairFromSeed(miniSecret);
  } finally {
    miniSecret.fill(0);
  }
}

/** The address (prefix 42) a seed phrase gives, to show before the account is created. */
export async function addressFromMnemonic(mnemonic: string): Promise<string> {
  await cryptoWaitReady();
  const kp = pairFromMnemonic(normalizeMnemonic(mnemonic));
  kp.secretKey.fill(0);
  return encodeAddress(kp.publicKey, SS58_FORMAT);
}

// ---------------------------------------------------------------------------------------------
// Names and passwords

/** A valid account name: trimmed, 1 to 64 characters, no control characters. */
export function normalizeName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw new WalletError('Give the account a name');
  const trimmed = name.trim();
  if ([...trimmed].length > MAX_NAME_LENGTH) {
    throw new WalletError(`An account name is at most ${MAX_NAME_LENGTH} characters`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw new WalletError('An account name cannot contain control characters');
  return trimmed;
}

/** Refuses a password too weak to protect a new key. */
export function checkNewPassword(password: unknown): asserts password is string {
  if (typeof password !== 'string' || password.length === 0) throw new WalletError('Choose a password');
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new WalletError(`A password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

function checkPassword(password: unknown): asserts password is string {
  if (typeof password !== 'string' || password.length === 0) throw new WalletError('Enter the password');
}

// ---------------------------------------------------------------------------------------------
// Keystore JSON: validation

/** 32-byte public key of an SS58 (any prefix) or 0x-hex address; null when it is neither. */
function publicKeyOf(address: string): Uint8Array | null {
  try {
    const key = decodeAddress(address);
    return key.length === 32 ? key : null;
  } catch {
    return null;
  }
}

function decodeEncoded(encoded: string): Uint8Array | null {
  try {
    if (isHex(encoded)) return hexToU8a(encoded);
    if (isBase64(encoded)) return base64Decode(encoded);
  } catch {
    // fall through
  }
  return null;
}

function copyMeta(meta: Record<string, unknown>): KeystoreMeta {
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(meta));
  } catch {
    throw invalid('the account details (meta) are not plain JSON');
  }
  if (!isPlainObject(copy)) throw invalid('the account details (meta) are not plain JSON');
  // A seed phrase (`suri`) has no business in a keystore; never carry one into storage.
  delete copy.suri;
  return copy as KeystoreMeta;
}

/**
 * Checks that `value` has the shape of a polkadot{.js} account export this wallet can hold, and
 * returns a fresh normalized copy (address in prefix 42, `encoded` in base64, `meta.suri` dropped).
 * Does not check the password: see `unlockKeystore`.
 */
export function toKeystoreJson(value: unknown): KeystoreJson {
  if (!isPlainObject(value)) throw invalid('expected a JSON object');

  const { address, encoded, encoding, meta } = value;
  if (Array.isArray(value.accounts) || (isPlainObject(encoding) && Array.isArray(encoding.content) && encoding.content[0] === 'batch-pkcs8')) {
    throw invalid('it holds several accounts; export the accounts one at a time and import each file');
  }

  if (typeof address !== 'string' || address === '') throw invalid('the address is missing');
  const publicKey = publicKeyOf(address);
  if (!publicKey) throw invalid('the address is not a valid Substrate address');

  if (!isPlainObject(encoding)) throw invalid('the encoding description is missing');
  const { content, type, version } = encoding;
  if (version !== '3') {
    throw invalid(`format version ${typeof version === 'string' ? `"${version.slice(0, 16)}"` : 'unknown'} is not supported (only version 3 is)`);
  }
  if (!Array.isArray(content) || content.length !== 2 || content[0] !== 'pkcs8') {
    throw invalid('the key is not in pkcs8 form');
  }
  const keyType = content[1];
  if (!KEY_TYPES.includes(keyType as KeyType)) {
    throw invalid(`key type ${typeof keyType === 'string' ? `"${keyType.slice(0, 16)}"` : 'unknown'} is not supported (sr25519 or ed25519 only)`);
  }
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('none')) {
    throw invalid('the key in it is not encrypted; export the account again with a password');
  }
  if (types.length !== 2 || !ENCRYPTION.every((t) => types.includes(t))) {
    throw invalid('its encryption is not supported (expected scrypt + xsalsa20-poly1305)');
  }

  if (typeof encoded !== 'string' || encoded === '') throw invalid('the encrypted key is missing');
  const bytes = decodeEncoded(encoded);
  if (!bytes) throw invalid('the encrypted key is not base64');
  if (!ENCODED_BYTES.includes(bytes.length)) throw invalid('the encrypted key has an unexpected length');
  try {
    scryptFromU8a(bytes);
  } catch {
    throw invalid('its scrypt parameters are not supported');
  }

  if (!isPlainObject(meta)) throw invalid('the account details (meta) are missing');
  if (meta.name !== undefined && typeof meta.name !== 'string') throw invalid('the account name is not text');

  return {
    address: encodeAddress(publicKey, SS58_FORMAT),
    encoded: base64Encode(bytes),
    encoding: { content: ['pkcs8', keyType as KeyType], type: [...ENCRYPTION], version: '3' },
    meta: copyMeta(meta)
  };
}

/** Parses the text of a keystore file (an account exported from polkadot{.js} or from this wallet). */
export function parseKeystoreJson(text: string): KeystoreJson {
  if (typeof text !== 'string') throw invalid('expected the text of a JSON file');
  if (text.length > MAX_KEYSTORE_BYTES) throw invalid('the file is too large');
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    // The parser's message quotes the input, which may be something secret pasted by mistake.
    throw invalid('it is not valid JSON');
  }
  return toKeystoreJson(value);
}

// ---------------------------------------------------------------------------------------------
// Keystore JSON: create, unlock, re-encrypt

/** Encrypts the pair's key with `password` into a keystore (the pair is left as it was). */
function pairToKeystore(pair: KeyringPair, password: string): KeystoreJson {
  return toKeystoreJson(pair.toJson(password));
}

/**
 * A new keystore from a seed phrase: sr25519, no derivation path, `meta` `{ name, whenCreated }`,
 * encrypted with `password` exactly as polkadot{.js} does (scrypt + xsalsa20-poly1305).
 * The seed phrase itself goes nowhere.
 */
export async function createFromMnemonic(
  mnemonic: string,
  name: string,
  password: string,
  options: { now?: () => number } = {}
): Promise<KeystoreJson> {
  const accountName = normalizeName(name);
  checkNewPassword(password);
  await cryptoWaitReady();
  const kp = pairFromMnemonic(normalizeMnemonic(mnemonic));
  const pair = keyring().createFromPair(kp, { name: accountName, whenCreated: (options.now ?? Date.now)() }, 'sr25519');
  try {
    return pairToKeystore(pair, password);
  } finally {
    kp.secretKey.fill(0);
    pair.lock();
  }
}

/** The plain pkcs8 body of a keystore; throws `WalletError('Wrong password')` when it does not open. */
function decrypt(json: KeystoreJson, password: string): Uint8Array {
  const bytes = base64Decode(json.encoded);
  try {
    return jsonDecryptData(bytes, password, [...ENCRYPTION]);
  } catch {
    throw new WalletError('Wrong password');
  }
}

/** Key pair held in a decrypted pkcs8 body (generations 1 to 3), in fresh buffers. */
function pairFromPkcs8(pkcs8: Uint8Array, type: KeyType): { publicKey: Uint8Array; secretKey: Uint8Array } {
  const damaged = () => new WalletError('This account file is damaged: its key cannot be read');
  if (!u8aEq(pkcs8.subarray(0, PAIR_HDR.length), PAIR_HDR)) throw damaged();
  const start = PAIR_HDR.length;
  if (pkcs8.length === PKCS8_BYTES_GEN3 && u8aEq(pkcs8.subarray(start + SEC_LENGTH, start + SEC_LENGTH + PAIR_DIV.length), PAIR_DIV)) {
    const pub = start + SEC_LENGTH + PAIR_DIV.length;
    return { secretKey: pkcs8.slice(start, start + SEC_LENGTH), publicKey: pkcs8.slice(pub, pub + PUB_LENGTH) };
  }
  if (pkcs8.length === PKCS8_BYTES_GEN1 && u8aEq(pkcs8.subarray(start + SEED_LENGTH, start + SEED_LENGTH + PAIR_DIV.length), PAIR_DIV)) {
    const seed = pkcs8.slice(start, start + SEED_LENGTH);
    try {
      return type === 'sr25519' ? sr25519PairFromSeed(seed) : ed25519PairFromSeed(seed);
    } finally {
      seed.fill(0);
    }
  }
  throw damaged();
}

/**
 * Decrypts a keystore into a usable (unlocked) key pair. Wrong password → `WalletError('Wrong
 * password')`; a key that does not match the file's address → `WalletError`. The pair's `lock()`
 * zeroes its secret key.
 */
export async function unlockKeystore(json: KeystoreJson, password: string): Promise<KeyringPair> {
  const keystore = toKeystoreJson(json);
  checkPassword(password);
  await cryptoWaitReady();
  const type = keystore.encoding.content[1];
  const pkcs8 = decrypt(keystore, password);
  let kp: { publicKey: Uint8Array; secretKey: Uint8Array };
  try {
    kp = pairFromPkcs8(pkcs8, type);
  } finally {
    pkcs8.fill(0);
  }
  const { publicKey, secretKey } = kp;
  const pair = keyring().createFromPair({ publicKey, secretKey }, keystore.meta, type);
  const baseLock = pair.lock;
  pair.lock = () => {
    secretKey.fill(0);
    baseLock();
  };
  const expected = decodeAddress(keystore.address);
  let sound = false;
  try {
    sound = u8aEq(publicKey, expected) && signatureVerify(PROBE, pair.sign(PROBE), publicKey).isValid;
  } catch {
    sound = false;
  }
  if (!sound) {
    pair.lock();
    throw new WalletError('This account file is damaged: its key does not match its address');
  }
  return pair;
}

/** The same keystore encrypted with another password (the new one must be at least 8 characters). */
export async function reencrypt(json: KeystoreJson, oldPassword: string, newPassword: string): Promise<KeystoreJson> {
  checkNewPassword(newPassword);
  const pair = await unlockKeystore(json, oldPassword);
  try {
    return pairToKeystore(pair, newPassword);
  } finally {
    pair.lock();
  }
}

// ---------------------------------------------------------------------------------------------
// Keystore JSON: export and rename

/**
 * The text of the export file. The stored keystore already is the polkadot{.js} format; the file
 * imports back into the polkadot{.js} extension ("Restore account from backup JSON file").
 */
export function exportKeystore(json: KeystoreJson): string {
  return JSON.stringify(toKeystoreJson(json));
}

/** File name polkadot{.js} uses for an account export. */
export function keystoreFileName(json: Pick<KeystoreJson, 'address'>): string {
  return `${json.address}.json`;
}

/** A copy of the keystore with another name. */
export function renameKeystore(json: KeystoreJson, name: string): KeystoreJson {
  const keystore = toKeystoreJson(json);
  return { ...keystore, meta: { ...keystore.meta, name: normalizeName(name) } };
}

/** The keystore in the type @polkadot/keyring expects (`keyring.addFromJson`). */
export function asKeyringJson(json: KeystoreJson): KeyringPair$Json {
  return json as unknown as KeyringPair$Json;
}
