import { DEV_PHRASE, Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromHex, toHex } from './hash';
import { InvalidSeedError, SignatureFormatError, pairFromSeed, signMessage, verifySignature } from './signature';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_UNIQUE = 'unjKJQJrRd238pkUZZvzDQrfKuM39zBSnQ5zjAGAGcdRhaJTx';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const MESSAGE = fromHex('0x3d02050000004502000000000100000001000000' + '11'.repeat(32) + 'ab'.repeat(32));

beforeAll(async () => {
  await cryptoWaitReady();
});

describe('pairFromSeed', () => {
  it.each([
    ['//Alice', ALICE],
    ['//Bob', BOB],
    ['//Alice//stash', '5GNJqTPyNqANBkUVMN1LPPrxXnFouWXoe2wNSmmEoLctxiZY'],
    ['//Bob//stash', '5HpG9w8EBLe5XCrbczpwq5TSXvedjrBGCwqxK1iQ7qUsSWFc'],
    // The dev phrase itself is the root dev account.
    [DEV_PHRASE, '5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV']
  ])('derives %s to the known dev address', (seed, address) => {
    const pair = pairFromSeed(seed);
    expect(pair.type).toBe('sr25519');
    expect(pair.address).toBe(address);
  });

  it('accepts a password junction and derives another key', () => {
    const plain = pairFromSeed('//Alice');
    const withPassword = pairFromSeed('//Alice///pw');
    expect(withPassword.address).not.toBe(plain.address);
    expect(withPassword.address).toBe(new Keyring({ type: 'sr25519' }).addFromUri(`${DEV_PHRASE}//Alice///pw`).address);
  });

  it('accepts another valid mnemonic', () => {
    const phrase = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
    expect(pairFromSeed(phrase).address).toBe(new Keyring({ type: 'sr25519' }).addFromMnemonic(phrase).address);
  });

  it.each([
    '',
    'hello',
    '//',
    '///pw',
    '//Alice//Bob//Carol',
    '//Alice/soft',
    '/Eve',
    'Eve',
    `${DEV_PHRASE}//Alice`,
    'bottom drive obey lake curtain smoke basket hold race lonely fit fit',
    ` ${DEV_PHRASE}`,
    '0x' + '12'.repeat(32)
  ])('rejects %j without echoing it', (seed) => {
    let error: unknown;
    try {
      pairFromSeed(seed);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidSeedError);
    const message = (error as Error).message;
    expect(message).toBe('Invalid seed: expected a BIP-39 mnemonic or a dev URI such as //Alice, //Alice//stash or //Alice///password');
    if (seed.length > 3) expect(message).not.toContain(seed);
    expect(JSON.stringify(error)).not.toContain('bottom');
  });

  it('rejects a non-string', () => {
    expect(() => pairFromSeed(undefined as unknown as string)).toThrow(InvalidSeedError);
  });
});

describe('signMessage / verifySignature', () => {
  it('signs with //Alice as 0x01 + 64 bytes and verifies', () => {
    const signature = signMessage(pairFromSeed('//Alice'), MESSAGE);
    expect(signature).toMatch(/^0x01[0-9a-f]{128}$/);
    expect(verifySignature(MESSAGE, signature, ALICE)).toBe(true);
    // Any SS58 prefix and the raw public key name the same signer.
    expect(verifySignature(MESSAGE, signature, ALICE_UNIQUE)).toBe(true);
    expect(verifySignature(MESSAGE, signature, toHex(pairFromSeed('//Alice').publicKey))).toBe(true);
  });

  it('verifies a signature made by the keyring with its type', () => {
    const signature = toHex(pairFromSeed('//Bob').sign(MESSAGE, { withType: true }));
    expect(verifySignature(MESSAGE, signature, BOB)).toBe(true);
  });

  it('rejects a tampered message, a tampered signature and the wrong signer', () => {
    const signature = signMessage(pairFromSeed('//Alice'), MESSAGE);
    const tampered = MESSAGE.slice();
    tampered[0] ^= 1;
    expect(verifySignature(tampered, signature, ALICE)).toBe(false);
    const badSig = fromHex(signature);
    badSig[10] ^= 0xff;
    expect(verifySignature(MESSAGE, toHex(badSig), ALICE)).toBe(false);
    expect(verifySignature(MESSAGE, signature, BOB)).toBe(false);
    // A well-formed but random signature body.
    expect(verifySignature(MESSAGE, '0x01' + 'ff'.repeat(64), ALICE)).toBe(false);
  });

  it('does not accept an sr25519 signature labelled ed25519', () => {
    const signature = signMessage(pairFromSeed('//Alice'), MESSAGE);
    expect(verifySignature(MESSAGE, '0x00' + signature.slice(4), ALICE)).toBe(false);
  });

  it('signs and verifies with an ed25519 key as 0x00 + 64 bytes', () => {
    const pair = new Keyring({ type: 'ed25519' }).addFromUri('//Alice');
    const signature = signMessage(pair, MESSAGE);
    expect(signature).toMatch(/^0x00[0-9a-f]{128}$/);
    expect(verifySignature(MESSAGE, signature, pair.address)).toBe(true);
    expect(verifySignature(MESSAGE, '0x01' + signature.slice(4), pair.address)).toBe(false);
    // ed25519 is deterministic: a fixed vector for //Alice's ed25519 key.
    expect(pair.address).toBe('5FA9nQDVg267DEd8m1ZypXLBnvN7SFxYwV7ndqSYGiN9TTpu');
    expect(signMessage(pair, new Uint8Array([1, 2, 3]))).toBe(
      '0x00baa00f16f83afdcb66106d8bfbf5382be05a667ca8124e53f18a5fc70642a713859a0936f3f7415b57937c17daae6fb5c6d41b31309320c050641f20b64e8b0b'
    );
  });

  it('verifies the RFC 8032 ed25519 test vector 1', () => {
    const publicKey = '0xd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
    const signature =
      '0x00e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
    expect(verifySignature(new Uint8Array(), signature, publicKey)).toBe(true);
    expect(verifySignature(new Uint8Array([0]), signature, publicKey)).toBe(false);
  });

  it.each([
    ['nope', 'Signature must be 0x-prefixed hex of whole bytes'],
    ['0x012', 'Signature must be 0x-prefixed hex of whole bytes'],
    ['0x', 'Signature must be 65 bytes (a type byte, 0x01 sr25519 or 0x00 ed25519, then 64 signature bytes), got 0'],
    // A raw 64-byte signature without its type byte.
    ['0x' + '11'.repeat(64), 'Signature must be 65 bytes (a type byte, 0x01 sr25519 or 0x00 ed25519, then 64 signature bytes), got 64'],
    ['0x02' + '11'.repeat(65), 'ECDSA signatures (type 0x02) are not supported: use sr25519 (0x01) or ed25519 (0x00)'],
    ['0x02' + '11'.repeat(64), 'ECDSA signatures (type 0x02) are not supported: use sr25519 (0x01) or ed25519 (0x00)'],
    ['0x03' + '11'.repeat(64), 'Unknown signature type 0x03: use sr25519 (0x01) or ed25519 (0x00)'],
    ['0x01' + '11'.repeat(63), 'Signature must be 65 bytes (a type byte, 0x01 sr25519 or 0x00 ed25519, then 64 signature bytes), got 64'],
    ['0x01' + '11'.repeat(65), 'Signature must be 65 bytes (a type byte, 0x01 sr25519 or 0x00 ed25519, then 64 signature bytes), got 66']
  ])('rejects the signature %s', (signature, message) => {
    expect(() => verifySignature(MESSAGE, signature, ALICE)).toThrow(SignatureFormatError);
    expect(() => verifySignature(MESSAGE, signature, ALICE)).toThrow(message);
  });

  it('rejects an Ethereum or invalid signer address', () => {
    const signature = '0x01' + '11'.repeat(64);
    expect(() => verifySignature(MESSAGE, signature, '0x' + 'ab'.repeat(20))).toThrow(
      'Cannot verify a signature of an Ethereum address: sign with a Substrate (sr25519 or ed25519) account'
    );
    expect(() => verifySignature(MESSAGE, signature, 'nobody')).toThrow(SignatureFormatError);
    expect(() => verifySignature(MESSAGE, signature, 'nobody')).toThrow('Invalid signer address: nobody');
  });

  it('refuses to sign with an unsupported key type', () => {
    const pair = new Keyring({ type: 'ecdsa' }).addFromUri('//Alice');
    expect(() => signMessage(pair, MESSAGE)).toThrow('Cannot sign with a ecdsa key: only sr25519 and ed25519 are supported');
  });
});
