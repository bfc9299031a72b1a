import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Keyring } from '@polkadot/keyring';
import { u8aConcat, u8aToHex } from '@polkadot/util';
import {
  base64Decode,
  base64Encode,
  cryptoWaitReady,
  mnemonicToMiniSecret,
  naclEncrypt,
  randomAsU8a,
  scryptEncode,
  scryptToU8a,
  signatureVerify,
  sr25519PairFromSeed
} from '@polkadot/util-crypto';
import { WalletError } from './errors';
import {
  addressFromMnemonic,
  asKeyringJson,
  confirmMnemonic,
  createFromMnemonic,
  exportKeystore,
  generateMnemonic,
  keystoreFileName,
  parseKeystoreJson,
  reencrypt,
  renameKeystore,
  toKeystoreJson,
  unlockKeystore,
  validateMnemonic,
  type KeystoreJson
} from './keystore';

// The Substrate development phrase and the address of its sr25519 root key (no derivation).
const DEV_PHRASE = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
const DEV_ADDRESS = '5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV';
const PASSWORD = 'correct horse';
const NOT_AN_EXPORT = 'This file is not a polkadot{.js} account export: ';

let created: KeystoreJson;
/** What the polkadot{.js} extension exports: Keyring's own toJson, Unique (7391) address form. */
let extensionExport: ReturnType<Keyring['toJson']>;
let extensionAddress42: string;

beforeAll(async () => {
  await cryptoWaitReady();
  created = await createFromMnemonic(DEV_PHRASE, 'Dev', PASSWORD, { now: () => 1234 });
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 7391 });
  const pair = keyring.addFromUri(generateMnemonic(), { name: 'From extension', genesisHash: `0x${'11'.repeat(32)}`, whenCreated: 99 });
  extensionAddress42 = new Keyring({ type: 'sr25519', ss58Format: 42 }).encodeAddress(pair.publicKey);
  extensionExport = pair.toJson('extension pw');
}, 60_000);

function expectWalletError(fn: () => unknown, message: string | RegExp) {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(WalletError);
  if (typeof message === 'string') expect((thrown as Error).message).toBe(message);
  else expect((thrown as Error).message).toMatch(message);
}

describe('seed phrases', () => {
  it('generates valid 12-word phrases, different each time', () => {
    const a = generateMnemonic();
    expect(a.split(' ')).toHaveLength(12);
    expect(validateMnemonic(a)).toBe(true);
    expect(generateMnemonic()).not.toBe(a);
    expect(generateMnemonic(24).split(' ')).toHaveLength(24);
  });

  it('validates whatever the spacing and case', () => {
    expect(validateMnemonic(DEV_PHRASE)).toBe(true);
    expect(validateMnemonic(`  ${DEV_PHRASE.toUpperCase().replace(/ /g, ' \n ')}  `)).toBe(true);
    expect(validateMnemonic(DEV_PHRASE.replace('walk', 'fit'))).toBe(false); // bad checksum
    expect(validateMnemonic(DEV_PHRASE.replace('walk', 'walkx'))).toBe(false); // not a word
    expect(validateMnemonic('bottom drive obey')).toBe(false);
    expect(validateMnemonic('')).toBe(false);
  });

  it('confirms a phrase typed back', () => {
    expect(confirmMnemonic(DEV_PHRASE, ` ${DEV_PHRASE.toUpperCase()} `)).toBe(true);
    expect(confirmMnemonic(DEV_PHRASE, DEV_PHRASE.replace('obey lake', 'lake obey'))).toBe(false);
    expect(confirmMnemonic(DEV_PHRASE, 'bottom drive')).toBe(false);
    expect(confirmMnemonic(DEV_PHRASE, '')).toBe(false);
  });

  it('gives the known sr25519 address of the development phrase', async () => {
    expect(await addressFromMnemonic(DEV_PHRASE)).toBe(DEV_ADDRESS);
    expect(new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(DEV_PHRASE).address).toBe(DEV_ADDRESS);
  });
});

describe('createFromMnemonic', () => {
  it('produces the polkadot{.js} keystore of the phrase', () => {
    expect(created.address).toBe(DEV_ADDRESS);
    expect(created.encoding).toEqual({ content: ['pkcs8', 'sr25519'], type: ['scrypt', 'xsalsa20-poly1305'], version: '3' });
    expect(created.meta).toEqual({ name: 'Dev', whenCreated: 1234 });
    // scrypt salt + params (N = 2^17, p = 1, r = 8, as Keyring uses), nonce, box of the pkcs8.
    const bytes = base64Decode(created.encoded);
    expect(bytes.length).toBe(44 + 24 + 16 + 117);
    expect(u8aToHex(bytes.subarray(32, 44))).toBe('0x000002000100000008000000');
    expect(JSON.stringify(created)).not.toMatch(/bottom|walk/);
  });

  it('decodes with @polkadot/keyring as the polkadot{.js} extension does', () => {
    const keyring = new Keyring({ type: 'sr25519' });
    const pair = keyring.addFromJson(asKeyringJson(created));
    expect(() => pair.decodePkcs8('wrong password')).toThrow();
    pair.decodePkcs8(PASSWORD);
    expect(pair.isLocked).toBe(false);
    expect(pair.address).toBe(DEV_ADDRESS);
    const message = new TextEncoder().encode('hello');
    expect(signatureVerify(message, pair.sign(message), DEV_ADDRESS).isValid).toBe(true);
  });

  it('refuses weak passwords, missing names and invalid phrases, without echoing the phrase', async () => {
    await expect(createFromMnemonic(DEV_PHRASE, 'Dev', 'short')).rejects.toThrow(
      new WalletError('A password must be at least 8 characters')
    );
    await expect(createFromMnemonic(DEV_PHRASE, 'Dev', '')).rejects.toThrow('Choose a password');
    await expect(createFromMnemonic(DEV_PHRASE, '  ', PASSWORD)).rejects.toThrow('Give the account a name');
    await expect(createFromMnemonic(DEV_PHRASE, 'x'.repeat(65), PASSWORD)).rejects.toThrow('at most 64 characters');
    const bad = DEV_PHRASE.replace('walk', 'fit');
    const error = await createFromMnemonic(bad, 'Dev', PASSWORD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletError);
    expect((error as Error).message).toBe('This seed phrase is not valid: check each word and their order');
    await expect(createFromMnemonic('bottom drive obey', 'Dev', PASSWORD)).rejects.toThrow(
      'A seed phrase has 12, 15, 18, 21 or 24 words; this one has 3'
    );
  });
});

describe('unlockKeystore', () => {
  it('unlocks with the password; the pair signs and verifies', async () => {
    const pair = await unlockKeystore(created, PASSWORD);
    expect(pair.address).toBe(DEV_ADDRESS);
    expect(pair.isLocked).toBe(false);
    const message = new TextEncoder().encode('payload');
    const signature = pair.sign(message, { withType: true });
    expect(signature.length).toBe(65);
    expect(signature[0]).toBe(1);
    expect(signatureVerify(message, signature, DEV_ADDRESS)).toMatchObject({ isValid: true, crypto: 'sr25519' });
    // Same key as the phrase gives.
    const expected = sr25519PairFromSeed(mnemonicToMiniSecret(DEV_PHRASE));
    expect(u8aToHex(pair.publicKey)).toBe(u8aToHex(expected.publicKey));
    pair.lock();
    expect(pair.isLocked).toBe(true);
    expect(() => pair.sign(message)).toThrow();
  });

  it('zeroes the secret key on lock()', async () => {
    const spy = vi.spyOn(Keyring.prototype, 'createFromPair');
    try {
      const pair = await unlockKeystore(created, PASSWORD);
      const held = spy.mock.calls[0][0].secretKey;
      expect(held.some((b) => b !== 0)).toBe(true);
      pair.lock();
      expect(held.every((b) => b === 0)).toBe(true);
      expect(pair.isLocked).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a wrong or empty password', async () => {
    await expect(unlockKeystore(created, 'wrong password')).rejects.toThrow(new WalletError('Wrong password'));
    await expect(unlockKeystore(created, '')).rejects.toThrow(new WalletError('Enter the password'));
  });

  it('treats a tampered ciphertext as a wrong password (the MAC fails)', async () => {
    const bytes = base64Decode(created.encoded);
    bytes[bytes.length - 1] ^= 1;
    await expect(unlockKeystore({ ...created, encoded: base64Encode(bytes) }, PASSWORD)).rejects.toThrow('Wrong password');
  });

  it('refuses a file whose key does not match its address', async () => {
    const swapped = { ...created, address: extensionAddress42 };
    await expect(unlockKeystore(swapped, PASSWORD)).rejects.toThrow(
      'This account file is damaged: its key does not match its address'
    );
  });

  it('opens an older generation keystore (32-byte seed in the pkcs8) like Keyring does', async () => {
    const seed = randomAsU8a(32);
    const kp = sr25519PairFromSeed(seed);
    const pkcs8 = u8aConcat(
      new Uint8Array([48, 83, 2, 1, 1, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32]),
      seed,
      new Uint8Array([161, 35, 3, 33, 0]),
      kp.publicKey
    );
    const params = { N: 1 << 15, p: 1, r: 8 };
    const { password, salt } = scryptEncode('old format', undefined, params);
    const { encrypted, nonce } = naclEncrypt(pkcs8, password.subarray(0, 32));
    const keyring = new Keyring({ type: 'sr25519' });
    const json: KeystoreJson = {
      address: keyring.encodeAddress(kp.publicKey),
      encoded: base64Encode(u8aConcat(scryptToU8a(salt, params), nonce, encrypted)),
      encoding: { content: ['pkcs8', 'sr25519'], type: ['scrypt', 'xsalsa20-poly1305'], version: '3' },
      meta: { name: 'old' }
    };
    const reference = keyring.createFromJson(asKeyringJson(json));
    reference.decodePkcs8('old format');
    const pair = await unlockKeystore(parseKeystoreJson(JSON.stringify(json)), 'old format');
    expect(pair.address).toBe(reference.address);
    const message = new Uint8Array([1, 2, 3]);
    expect(signatureVerify(message, pair.sign(message), pair.address).isValid).toBe(true);
  });

  it('opens an ed25519 keystore', async () => {
    const keyring = new Keyring({ type: 'ed25519' });
    const source = keyring.addFromUri(DEV_PHRASE, { name: 'ed' });
    const pair = await unlockKeystore(parseKeystoreJson(JSON.stringify(source.toJson('ed password'))), 'ed password');
    expect(pair.type).toBe('ed25519');
    expect(pair.address).toBe(source.address);
    const signature = pair.sign(new Uint8Array([7]), { withType: true });
    expect(signature[0]).toBe(0);
    expect(signatureVerify(new Uint8Array([7]), signature, pair.address).isValid).toBe(true);
  });
});

describe('parseKeystoreJson', () => {
  it('reads a polkadot{.js} extension export and normalizes its address to prefix 42', async () => {
    const json = parseKeystoreJson(JSON.stringify(extensionExport, null, 2));
    expect(extensionExport.address).not.toBe(extensionAddress42);
    expect(json.address).toBe(extensionAddress42);
    expect(json.encoded).toBe(extensionExport.encoded);
    expect(json.meta).toEqual(extensionExport.meta);
    const pair = await unlockKeystore(json, 'extension pw');
    expect(pair.address).toBe(extensionAddress42);
  });

  it('accepts a byte-order mark and drops a seed phrase found in meta', () => {
    const withSuri = { ...created, meta: { ...created.meta, suri: DEV_PHRASE } };
    const json = parseKeystoreJson('\uFEFF' + JSON.stringify(withSuri));
    expect(json.meta).toEqual(created.meta);
    expect(JSON.stringify(json)).not.toContain('bottom');
  });

  const cases: [string, () => string, string][] = [
    ['not JSON', () => 'bottom drive obey lake', 'it is not valid JSON'],
    ['truncated JSON', () => JSON.stringify(created).slice(0, 60), 'it is not valid JSON'],
    ['a JSON array', () => '[]', 'expected a JSON object'],
    ['JSON null', () => 'null', 'expected a JSON object'],
    ['no address', () => JSON.stringify({ ...created, address: undefined }), 'the address is missing'],
    ['a bad address', () => JSON.stringify({ ...created, address: '5Dfh-not-an-address' }), 'the address is not a valid Substrate address'],
    ['an address with a bad checksum', () => JSON.stringify({ ...created, address: DEV_ADDRESS.slice(0, -1) + 'W' }), 'the address is not a valid Substrate address'],
    ['an Ethereum address', () => JSON.stringify({ ...created, address: '0x' + 'ab'.repeat(20) }), 'the address is not a valid Substrate address'],
    ['no encoding', () => JSON.stringify({ ...created, encoding: undefined }), 'the encoding description is missing'],
    ['version 2', () => JSON.stringify({ ...created, encoding: { ...created.encoding, version: '2' } }), 'format version "2" is not supported (only version 3 is)'],
    ['version as a number', () => JSON.stringify({ ...created, encoding: { ...created.encoding, version: 3 } }), 'format version unknown is not supported (only version 3 is)'],
    ['content not pkcs8', () => JSON.stringify({ ...created, encoding: { ...created.encoding, content: ['raw', 'sr25519'] } }), 'the key is not in pkcs8 form'],
    ['an ecdsa key', () => JSON.stringify({ ...created, encoding: { ...created.encoding, content: ['pkcs8', 'ecdsa'] } }), 'key type "ecdsa" is not supported (sr25519 or ed25519 only)'],
    ['an unencrypted key', () => JSON.stringify({ ...created, encoding: { ...created.encoding, type: ['none'] } }), 'the key in it is not encrypted; export the account again with a password'],
    ['no scrypt', () => JSON.stringify({ ...created, encoding: { ...created.encoding, type: ['xsalsa20-poly1305'] } }), 'its encryption is not supported (expected scrypt + xsalsa20-poly1305)'],
    ['no encoded key', () => JSON.stringify({ ...created, encoded: '' }), 'the encrypted key is missing'],
    ['encoded not base64', () => JSON.stringify({ ...created, encoded: '***' }), 'the encrypted key is not base64'],
    ['encoded too short', () => JSON.stringify({ ...created, encoded: created.encoded.slice(0, 40) }), 'the encrypted key has an unexpected length'],
    [
      'scrypt parameters not allowed',
      () => {
        const bytes = base64Decode(created.encoded);
        bytes.set([0, 0, 0, 1], 32); // N = 2^24
        return JSON.stringify({ ...created, encoded: base64Encode(bytes) });
      },
      'its scrypt parameters are not supported'
    ],
    ['no meta', () => JSON.stringify({ ...created, meta: undefined }), 'the account details (meta) are missing'],
    ['a name that is not text', () => JSON.stringify({ ...created, meta: { name: 42 } }), 'the account name is not text'],
    [
      'a batch export',
      () => JSON.stringify({ encoded: created.encoded, encoding: { content: ['batch-pkcs8'], type: ['scrypt', 'xsalsa20-poly1305'], version: '3' }, accounts: [] }),
      'it holds several accounts; export the accounts one at a time and import each file'
    ],
    ['a huge file', () => ' '.repeat(300 * 1024), 'the file is too large']
  ];

  it.each(cases)('refuses %s with a clear WalletError', (_, text, reason) => {
    expectWalletError(() => parseKeystoreJson(text()), NOT_AN_EXPORT + reason);
  });

  it('never quotes the input in its error', () => {
    let message = '';
    try {
      parseKeystoreJson(DEV_PHRASE);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toMatch(/bottom|drive|walk/);
  });

  it('refuses non-string input', () => {
    expectWalletError(() => parseKeystoreJson(42 as unknown as string), NOT_AN_EXPORT + 'expected the text of a JSON file');
    expectWalletError(() => toKeystoreJson({ ...created, meta: { name: 'x', f: 1n } }), NOT_AN_EXPORT + 'the account details (meta) are not plain JSON');
  });
});

describe('export, rename, re-encrypt', () => {
  it('exports text that parses, unlocks and decodes in Keyring', async () => {
    const text = exportKeystore(created);
    expect(keystoreFileName(created)).toBe(`${DEV_ADDRESS}.json`);
    const back = parseKeystoreJson(text);
    expect(back).toEqual(created);
    const pair = await unlockKeystore(back, PASSWORD);
    expect(pair.address).toBe(DEV_ADDRESS);
    const extension = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromJson(JSON.parse(text));
    extension.decodePkcs8(PASSWORD);
    expect(extension.address).toBe(DEV_ADDRESS);
    expect(extension.meta.name).toBe('Dev');
  });

  it('renames without touching the key', () => {
    const renamed = renameKeystore(created, '  Main  ');
    expect(renamed.meta).toEqual({ name: 'Main', whenCreated: 1234 });
    expect(renamed.encoded).toBe(created.encoded);
    expect(created.meta.name).toBe('Dev');
    expectWalletError(() => renameKeystore(created, ''), 'Give the account a name');
    expectWalletError(() => renameKeystore(created, 'a\u0000b'), 'An account name cannot contain control characters');
  });

  it('re-encrypts with a new password', async () => {
    await expect(reencrypt(created, PASSWORD, 'short')).rejects.toThrow('A password must be at least 8 characters');
    await expect(reencrypt(created, 'wrong password', 'new password')).rejects.toThrow('Wrong password');
    const again = await reencrypt(created, PASSWORD, 'new password');
    expect(again.address).toBe(DEV_ADDRESS);
    expect(again.meta).toEqual(created.meta);
    expect(again.encoded).not.toBe(created.encoded);
    await expect(unlockKeystore(again, PASSWORD)).rejects.toThrow('Wrong password');
    expect((await unlockKeystore(again, 'new password')).address).toBe(DEV_ADDRESS);
  });
});
