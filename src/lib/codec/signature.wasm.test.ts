// verifySignature's wasm path against the pure-JS verifiers it replaced, and the dev key memo.
import { DEV_PHRASE, Keyring } from '@polkadot/keyring';
import { cryptoWaitReady, ed25519Verify as jsEd25519Verify, sr25519Verify as jsSr25519Verify } from '@polkadot/util-crypto';
import * as wasm from '@polkadot/wasm-crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addressFromPublicKey } from './address';
import { fromHex, toHex } from './hash';
import { devKeyCacheSize, pairFromSeed, signMessage, verifySignature } from './signature';

// Pass-through spies, so that a test can see which verifier ran and can pretend wasm is not ready.
vi.mock('@polkadot/wasm-crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('@polkadot/wasm-crypto')>();
  return { ...real, isReady: vi.fn(real.isReady), sr25519Verify: vi.fn(real.sr25519Verify), ed25519Verify: vi.fn(real.ed25519Verify) };
});

const MESSAGE = new TextEncoder().encode('opalite signer payload');
// The all-zero key is the Ristretto identity; R = s·B with the schnorrkel marker set "signs" for it.
const ZERO_KEY_ADDRESS = addressFromPublicKey(new Uint8Array(32));
const IDENTITY_FORGERY =
  '0x01' + 'e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76' + '01'.padEnd(62, '0') + '80';

function js(message: Uint8Array, signature: string, publicKey: Uint8Array): boolean {
  const raw = fromHex(signature);
  try {
    return raw[0] === 1 ? jsSr25519Verify(message, raw.subarray(1), publicKey) : jsEd25519Verify(message, raw.subarray(1), publicKey, true);
  } catch {
    return false;
  }
}

function flip(signature: string, byte: number, mask = 1): string {
  const raw = fromHex(signature);
  raw[1 + byte] ^= mask;
  return toHex(raw);
}

beforeAll(async () => {
  await cryptoWaitReady();
});

afterEach(() => {
  vi.clearAllMocks(); // call history only; the pass-through implementations stay
});

describe('verifySignature via @polkadot/wasm-crypto', () => {
  const sr = new Keyring({ type: 'sr25519' }).addFromUri('//Alice');
  const ed = new Keyring({ type: 'ed25519' }).addFromUri('//Alice');
  const srSignature = () => signMessage(sr, MESSAGE);
  const edSignature = () => signMessage(ed, MESSAGE);

  function cases(): Array<[string, Uint8Array, string, Uint8Array]> {
    const s = srSignature();
    const e = edSignature();
    const tamperedMessage = MESSAGE.slice();
    tamperedMessage[3] ^= 4;
    const unmarked = flip(s, 63, 0x80); // schnorrkel marker cleared
    return [
      ['sr25519 valid', MESSAGE, s, sr.publicKey],
      ['sr25519 tampered message', tamperedMessage, s, sr.publicKey],
      ['sr25519 tampered R', MESSAGE, flip(s, 5), sr.publicKey],
      ['sr25519 tampered s', MESSAGE, flip(s, 40), sr.publicKey],
      ['sr25519 without the schnorrkel marker', MESSAGE, unmarked, sr.publicKey],
      ['sr25519 s out of range', MESSAGE, '0x01' + s.slice(4, 68) + 'ff'.repeat(32), sr.publicKey],
      ['sr25519 random', MESSAGE, '0x01' + 'ab'.repeat(64), sr.publicKey],
      ['sr25519 wrong signer', MESSAGE, s, ed.publicKey],
      ['sr25519 identity key forgery', new Uint8Array([1, 2, 3]), IDENTITY_FORGERY, new Uint8Array(32)],
      ['ed25519 valid', MESSAGE, e, ed.publicKey],
      ['ed25519 tampered message', tamperedMessage, e, ed.publicKey],
      ['ed25519 tampered signature', MESSAGE, flip(e, 10), ed.publicKey],
      ['ed25519 random', MESSAGE, '0x00' + 'cd'.repeat(64), ed.publicKey],
      ['ed25519 labelled sr25519', MESSAGE, '0x01' + e.slice(4), ed.publicKey]
    ];
  }

  it('takes the wasm verifiers once wasm is ready', () => {
    expect(wasm.isReady()).toBe(true);
    expect(verifySignature(MESSAGE, srSignature(), sr.address)).toBe(true);
    expect(wasm.sr25519Verify).toHaveBeenCalledTimes(1);
    expect(verifySignature(MESSAGE, edSignature(), ed.address)).toBe(true);
    expect(wasm.ed25519Verify).toHaveBeenCalledTimes(1);
  });

  it('agrees with the pure-JS verifiers on valid and invalid signatures', () => {
    const expected = { valid: 0, invalid: 0 };
    for (const [label, message, signature, publicKey] of cases()) {
      const want = js(message, signature, publicKey);
      expect(verifySignature(message, signature, addressFromPublicKey(publicKey)), label).toBe(want);
      if (want) expected.valid++;
      else expected.invalid++;
    }
    expect(expected).toEqual({ valid: 2, invalid: 12 });
  });

  it('rejects the identity-key forgery that schnorrkel itself would accept', () => {
    // The reason for the explicit check: without it the wasm path would say true here.
    expect(wasm.sr25519Verify(fromHex(IDENTITY_FORGERY).subarray(1), new Uint8Array([1, 2, 3]), new Uint8Array(32))).toBe(true);
    expect(verifySignature(new Uint8Array([1, 2, 3]), IDENTITY_FORGERY, ZERO_KEY_ADDRESS)).toBe(false);
  });

  it('falls back to the JS verifiers, with the same answers, while wasm is not ready', async () => {
    const { isReady } = await vi.importActual<typeof import('@polkadot/wasm-crypto')>('@polkadot/wasm-crypto');
    vi.mocked(wasm.isReady).mockImplementation(() => false);
    try {
      for (const [label, message, signature, publicKey] of cases()) {
        expect(verifySignature(message, signature, addressFromPublicKey(publicKey)), label).toBe(js(message, signature, publicKey));
      }
      expect(wasm.sr25519Verify).not.toHaveBeenCalled();
      expect(wasm.ed25519Verify).not.toHaveBeenCalled();
    } finally {
      vi.mocked(wasm.isReady).mockImplementation(isReady);
    }
  });
});

describe('pairFromSeed dev key memo', () => {
  const fresh = (uri: string) => new Keyring({ type: 'sr25519' }).addFromUri(uri);

  it('gives the keyring’s own key for dev URIs, from the memo on repeated calls', () => {
    for (const uri of ['//Alice', '//Bob//stash', '//Ferdie', '//Alice//Bob']) {
      const expected = fresh(DEV_PHRASE + uri);
      for (let i = 0; i < 2; i++) {
        const pair = pairFromSeed(uri);
        expect(pair.address).toBe(expected.address);
        expect(pair.type).toBe('sr25519');
        expect(pair.meta).toEqual(expected.meta);
        // Unencrypted PKCS#8 carries the secret key: byte-equal means the same key exactly.
        expect(toHex(pair.encodePkcs8())).toBe(toHex(expected.encodePkcs8()));
        expect(verifySignature(MESSAGE, signMessage(pair, MESSAGE), expected.address)).toBe(true);
      }
    }
  });

  it('returns a separate pair each time, which a caller cannot corrupt for the next', () => {
    const a = pairFromSeed('//Alice');
    const b = pairFromSeed('//Alice');
    expect(a).not.toBe(b);
    expect(a.publicKey).not.toBe(b.publicKey);
    a.lock();
    a.setMeta({ name: 'mine' });
    a.publicKey.fill(0);
    expect(a.isLocked).toBe(true);
    const c = pairFromSeed('//Alice');
    for (const pair of [b, c]) {
      expect(pair.isLocked).toBe(false);
      expect(pair.meta).toEqual({});
      expect(pair.address).toBe('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY');
      expect(verifySignature(MESSAGE, signMessage(pair, MESSAGE), pair.address)).toBe(true);
    }
  });

  it('never caches a mnemonic or a password URI', () => {
    pairFromSeed('//Alice');
    const before = devKeyCacheSize();
    const phrase = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
    for (let i = 0; i < 2; i++) {
      expect(pairFromSeed(phrase).address).toBe(fresh(phrase).address);
      expect(pairFromSeed(DEV_PHRASE).address).toBe('5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV');
      expect(pairFromSeed('//Alice///pw').address).toBe(fresh(`${DEV_PHRASE}//Alice///pw`).address);
    }
    expect(devKeyCacheSize()).toBe(before);
  });

  it('holds at most 64 dev keys', () => {
    for (let i = 0; i < 70; i++) pairFromSeed(`//memo-bound-${i}`);
    expect(devKeyCacheSize()).toBeLessThanOrEqual(64);
    expect(pairFromSeed('//memo-bound-0').address).toBe(fresh(`${DEV_PHRASE}//memo-bound-0`).address);
  });
});
