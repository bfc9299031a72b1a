import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import {
  base64Decode,
  base64Encode,
  cryptoWaitReady,
  mnemonicToMiniSecret,
  signatureVerify,
  sr25519PairFromSeed
} from '@polkadot/util-crypto';
import { WalletError, WalletLockedError } from './errors';
import { asKeyringJson, exportKeystore, generateMnemonic, parseKeystoreJson, unlockKeystore, type KeystoreJson } from './keystore';
import { fakeClock, quickKeystore } from './testing';
import { Vault, type VaultOptions } from './vault';

const DEV_PHRASE = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
const DEV_ADDRESS = '5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV';
const PASSWORD = 'correct horse';
const MINUTE = 60_000;

let dev: KeystoreJson; // the development phrase, password PASSWORD
let other: KeystoreJson; // a random phrase, password PASSWORD
let otherPhrase: string;
let extensionText: string; // an extension export (Unique address form), password 'extension pw'
let extensionAddress42: string;

beforeAll(async () => {
  await cryptoWaitReady();
  otherPhrase = generateMnemonic();
  // Cheaper scrypt parameters for the stored fixtures; `addFromMnemonic` is tested with the real ones.
  dev = quickKeystore(DEV_PHRASE, 'Dev', PASSWORD);
  other = quickKeystore(otherPhrase, 'Other', PASSWORD);
  const pair = new Keyring({ type: 'sr25519', ss58Format: 7391 }).addFromUri(generateMnemonic(), { name: 'Imported', whenCreated: 5 });
  extensionAddress42 = new Keyring({ ss58Format: 42 }).encodeAddress(pair.publicKey);
  extensionText = JSON.stringify(pair.toJson('extension pw'));
}, 60_000);

const open: Vault[] = [];
afterEach(() => {
  for (const vault of open.splice(0)) vault.close();
});

function setup(options: VaultOptions = {}) {
  const indexedDB = new IDBFactory();
  const clock = fakeClock();
  const make = (more: VaultOptions = {}) => {
    const vault = new Vault({ indexedDB, IDBKeyRange, now: clock.now, setTimer: clock.setTimer, clearTimer: clock.clearTimer, ...options, ...more });
    open.push(vault);
    return vault;
  };
  return { vault: make(), make, clock, indexedDB };
}

/** Every row of the accounts store, read with the plain IndexedDB API (no Dexie). */
function rawRows(indexedDB: IDBFactory, dbName = 'opalite-wallet'): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(dbName);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const all = db.transaction('accounts', 'readonly').objectStore('accounts').getAll();
      all.onerror = () => reject(all.error);
      all.onsuccess = () => {
        db.close();
        resolve(all.result);
      };
    };
  });
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe('Vault', () => {
  it('creates, lists, unlocks, signs, locks', async () => {
    const { vault, clock } = setup();
    const seen: number[] = [];
    vault.subscribe(() => seen.push(1));
    const account = await vault.addFromMnemonic(DEV_PHRASE, 'Dev', PASSWORD);
    expect(account).toEqual({ address: DEV_ADDRESS, name: 'Dev', type: 'sr25519', createdAt: clock.now(), isUnlocked: false });
    expect(await vault.list()).toEqual([account]);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(false);
    expect(() => vault.sign(DEV_ADDRESS, new Uint8Array([1]))).toThrow(WalletLockedError);

    await vault.unlock(DEV_ADDRESS, PASSWORD);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(true);
    expect((await vault.list())[0].isUnlocked).toBe(true);

    const message = new TextEncoder().encode('extrinsic payload');
    const signature = vault.sign(DEV_ADDRESS, message);
    expect(signature).toMatch(/^0x01[0-9a-f]{128}$/);
    expect(signatureVerify(message, signature, DEV_ADDRESS)).toMatchObject({ isValid: true, crypto: 'sr25519' });
    expect(signatureVerify(message, '0x' + signature.slice(4), DEV_ADDRESS).isValid).toBe(true);
    expect(signatureVerify(new Uint8Array([9]), signature, DEV_ADDRESS).isValid).toBe(false);

    vault.lock(DEV_ADDRESS);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(false);
    const error = (() => {
      try {
        vault.sign(DEV_ADDRESS, message);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(WalletLockedError);
    expect(error).toBeInstanceOf(WalletError);
    expect((error as WalletLockedError).address).toBe(DEV_ADDRESS);
    expect(seen.length).toBe(3); // add, unlock, lock
  });

  it('lists accounts oldest first and keeps them across instances, locked', async () => {
    const { vault, make, clock } = setup();
    await vault.add(other);
    clock.jump(1000);
    await vault.add(dev);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    const again = make();
    const list = await again.list();
    expect(list.map((a) => [a.name, a.isUnlocked])).toEqual([
      ['Other', false],
      ['Dev', false]
    ]);
    expect(list[1].createdAt - list[0].createdAt).toBe(1000);
    expect(await again.get(DEV_ADDRESS)).toMatchObject({ name: 'Dev' });
    expect(await again.get('nonsense')).toBeUndefined();
  });

  it('refuses a wrong password and stays locked', async () => {
    const { vault } = setup();
    await vault.add(dev);
    await expect(vault.unlock(DEV_ADDRESS, 'wrong password')).rejects.toThrow(new WalletError('Wrong password'));
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(false);
    await expect(vault.unlock(DEV_ADDRESS, '')).rejects.toThrow('Enter the password');
  });

  it('refuses a duplicate and unknown accounts', async () => {
    const { vault } = setup();
    await vault.add(dev);
    await expect(vault.add(dev)).rejects.toThrow(new WalletError('This account is already in the wallet'));
    await expect(vault.addFromMnemonic(DEV_PHRASE, 'Again', PASSWORD)).rejects.toThrow('This account is already in the wallet');
    expect(await vault.list()).toHaveLength(1);
    const unknown = 'This account is not in the wallet';
    await expect(vault.unlock(extensionAddress42, PASSWORD)).rejects.toThrow(unknown);
    await expect(vault.rename(extensionAddress42, 'x')).rejects.toThrow(unknown);
    await expect(vault.remove(extensionAddress42)).rejects.toThrow(unknown);
    await expect(vault.exportJson('not an address')).rejects.toThrow(unknown);
  });

  it('imports a polkadot{.js} file only with its password, by any address form', async () => {
    const { vault, indexedDB } = setup();
    await expect(vault.importJson(extensionText, 'wrong password')).rejects.toThrow('Wrong password');
    expect(await vault.list()).toEqual([]);
    const account = await vault.importJson(extensionText, 'extension pw');
    expect(account).toMatchObject({ address: extensionAddress42, name: 'Imported', isUnlocked: false });
    const uniqueForm = JSON.parse(extensionText).address as string;
    await vault.unlock(uniqueForm, 'extension pw');
    expect(vault.isUnlocked(extensionAddress42)).toBe(true);
    const message = new Uint8Array([1, 2, 3]);
    expect(signatureVerify(message, vault.sign(uniqueForm, message), extensionAddress42).isValid).toBe(true);
    await expect(vault.importJson(extensionText, 'extension pw')).rejects.toThrow('This account is already in the wallet');
    expect(await rawRows(indexedDB)).toHaveLength(1);
  });

  it('refuses malformed files with a clear WalletError and writes nothing', async () => {
    const { vault, indexedDB } = setup();
    const bad = [
      'not json at all',
      '{"address":',
      JSON.stringify({ ...dev, address: undefined }),
      JSON.stringify({ ...dev, encoded: undefined }),
      JSON.stringify({ ...dev, meta: undefined }),
      JSON.stringify({ ...dev, encoding: { ...dev.encoding, version: '2' } }),
      JSON.stringify({ ...dev, encoding: { ...dev.encoding, type: ['none'] } }),
      JSON.stringify({ ...dev, encoding: { ...dev.encoding, content: ['pkcs8', 'ethereum'] } })
    ];
    for (const text of bad) {
      const error = await vault.importJson(text, PASSWORD).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WalletError);
      expect((error as Error).message).toMatch(/^This file is not a polkadot\{\.js\} account export: /);
      // The same objects handed to add() directly are refused the same way.
      await expect(vault.add(safeParse(text) as KeystoreJson)).rejects.toBeInstanceOf(WalletError);
    }
    // A file whose key does not match its address: refused after decryption, nothing written.
    const swapped = JSON.stringify({ ...dev, address: extensionAddress42 });
    await expect(vault.importJson(swapped, PASSWORD)).rejects.toThrow('This account file is damaged');
    expect(await vault.list()).toEqual([]);
    expect(await rawRows(indexedDB)).toEqual([]);
  });

  it('renames and removes', async () => {
    const { vault } = setup();
    await vault.add(dev);
    await vault.add(other);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    expect(await vault.rename(DEV_ADDRESS, '  Main  ')).toMatchObject({ name: 'Main', isUnlocked: true });
    expect((await vault.exportJson(DEV_ADDRESS)).meta.name).toBe('Main');
    await expect(vault.rename(DEV_ADDRESS, '')).rejects.toThrow('Give the account a name');
    expect((await vault.get(DEV_ADDRESS))?.name).toBe('Main');

    await vault.remove(DEV_ADDRESS);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(false);
    expect(() => vault.sign(DEV_ADDRESS, new Uint8Array([1]))).toThrow(WalletLockedError);
    expect((await vault.list()).map((a) => a.name)).toEqual(['Other']);
  });

  it('exports JSON that parses, unlocks and decodes in @polkadot/keyring', async () => {
    const { vault } = setup();
    await vault.add(dev);
    const exported = await vault.exportJson(DEV_ADDRESS);
    expect(exported).toEqual(dev);
    const text = exportKeystore(exported);
    const pair = await unlockKeystore(parseKeystoreJson(text), PASSWORD);
    expect(pair.address).toBe(DEV_ADDRESS);
    // As the polkadot{.js} extension restores a backup file.
    const keyring = new Keyring({ type: 'sr25519' });
    const restored = keyring.addFromJson(asKeyringJson(JSON.parse(text)));
    restored.decodePkcs8(PASSWORD);
    expect(restored.address).toBe(DEV_ADDRESS);
    expect(restored.meta.name).toBe('Dev');
  });

  it('changes the password of a stored key', async () => {
    const { vault } = setup();
    await vault.add(dev);
    await vault.rename(DEV_ADDRESS, 'Renamed');
    await expect(vault.changePassword(DEV_ADDRESS, PASSWORD, 'short')).rejects.toThrow('A password must be at least 8 characters');
    await expect(vault.changePassword(DEV_ADDRESS, 'wrong password', 'new password')).rejects.toThrow('Wrong password');
    await vault.changePassword(DEV_ADDRESS, PASSWORD, 'new password');
    await expect(vault.unlock(DEV_ADDRESS, PASSWORD)).rejects.toThrow('Wrong password');
    await vault.unlock(DEV_ADDRESS, 'new password');
    expect((await vault.get(DEV_ADDRESS))?.name).toBe('Renamed');
  });

  it('never stores the seed phrase or the secret key in clear', async () => {
    const { vault, indexedDB } = setup();
    await vault.addFromMnemonic(DEV_PHRASE, 'Dev', PASSWORD);
    await vault.add(other);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    vault.sign(DEV_ADDRESS, new Uint8Array([1]));
    const rows = await rawRows(indexedDB);
    expect(rows).toHaveLength(2);
    for (const [row, phrase] of [
      [rows.find((r) => (r as { address: string }).address === DEV_ADDRESS), DEV_PHRASE],
      [rows.find((r) => (r as { address: string }).address !== DEV_ADDRESS), otherPhrase]
    ] as const) {
      expect(Object.keys(row as object).sort()).toEqual(['address', 'createdAt', 'json']);
      const text = JSON.stringify(row);
      const miniSecret = mnemonicToMiniSecret(phrase);
      const { secretKey } = sr25519PairFromSeed(miniSecret);
      // No two consecutive words of the phrase (single words are English: "name" is in the keystore).
      const words = phrase.split(' ');
      for (let i = 1; i < words.length; i++) expect(text).not.toMatch(new RegExp(`\\b${words[i - 1]}\\W+${words[i]}\\b`));
      for (const secret of [miniSecret, secretKey, secretKey.subarray(0, 32)]) {
        expect(text).not.toContain(u8aToHex(secret).slice(2));
        expect(text).not.toContain(base64Encode(secret).replace(/=+$/, ''));
        const encoded = base64Decode((row as { json: KeystoreJson }).json.encoded);
        expect(indexOf(encoded, secret)).toBe(-1);
        expect(indexOf(encoded, secret.subarray(0, 16))).toBe(-1);
      }
      expect((row as { json: KeystoreJson }).json.encoding.type).toEqual(['scrypt', 'xsalsa20-poly1305']);
    }
  });

  it('uses the database name it is given, with a versioned schema', async () => {
    const { vault, indexedDB } = setup({ dbName: 'other-wallet' });
    await vault.add(dev);
    expect(await rawRows(indexedDB, 'other-wallet')).toHaveLength(1);
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toEqual(['other-wallet']);
  });
});

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

describe('Vault auto-lock', () => {
  it('locks every key after the inactivity period', async () => {
    const { vault, clock } = setup({ autoLockMs: 5 * MINUTE });
    await vault.add(dev);
    await vault.add(other);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    await vault.unlock(other.address, PASSWORD);
    let changes = 0;
    vault.subscribe(() => changes++);
    expect(clock.pending).toBe(1);
    clock.advance(5 * MINUTE - 1);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(true);
    expect(vault.isUnlocked(other.address)).toBe(true);
    clock.advance(1);
    expect(changes).toBe(1); // locked by the timer, one notification
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(false);
    expect(vault.isUnlocked(other.address)).toBe(false);
    expect(clock.pending).toBe(0);
    expect(() => vault.sign(DEV_ADDRESS, new Uint8Array([1]))).toThrow(WalletLockedError);
  });

  it('starts again on activity: touch() and signing', async () => {
    const { vault, clock } = setup({ autoLockMs: 5 * MINUTE });
    await vault.add(dev);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    clock.advance(4 * MINUTE);
    vault.touch();
    clock.advance(4 * MINUTE);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(true);
    vault.sign(DEV_ADDRESS, new Uint8Array([1]));
    clock.advance(4 * MINUTE);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(true);
    expect(clock.pending).toBe(1); // one timer, re-armed for the remaining time, not one per touch
    clock.advance(1 * MINUTE);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(false);
  });

  it('locks on use when the clock passed the limit but the timer did not fire (device asleep)', async () => {
    const { vault, clock } = setup({ autoLockMs: 5 * MINUTE });
    await vault.add(dev);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    clock.jump(6 * MINUTE);
    // Activity after the limit does not extend the session: the key locks first.
    vault.touch();
    expect(() => vault.sign(DEV_ADDRESS, new Uint8Array([1]))).toThrow(WalletLockedError);
    expect((await vault.list())[0].isUnlocked).toBe(false);
  });

  it('unlocking after a long idle time works and starts a fresh period', async () => {
    const { vault, clock } = setup({ autoLockMs: 5 * MINUTE });
    await vault.add(dev);
    clock.jump(60 * MINUTE);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(true);
    clock.advance(5 * MINUTE);
    expect(vault.isUnlocked(DEV_ADDRESS)).toBe(false);
  });

  it('arms no timer while everything is locked, and lockAll clears it', async () => {
    const { vault, clock } = setup({ autoLockMs: 5 * MINUTE });
    await vault.add(dev);
    vault.touch();
    expect(clock.pending).toBe(0);
    await vault.unlock(DEV_ADDRESS, PASSWORD);
    expect(clock.pending).toBe(1);
    vault.lockAll();
    expect(clock.pending).toBe(0);
  });

  it('refuses a non-positive period', () => {
    expect(() => new Vault({ autoLockMs: 0, indexedDB: new IDBFactory(), IDBKeyRange })).toThrow(WalletError);
  });
});
