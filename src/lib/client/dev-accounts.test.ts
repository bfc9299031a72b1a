import { DEV_PHRASE, Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNT_LIST, devKeystore, devName, devUri } from './dev-accounts';

beforeAll(async () => {
  await cryptoWaitReady();
});

describe('dev accounts', () => {
  it('lists the six named accounts whose addresses the dev phrase derives', () => {
    expect(DEV_ACCOUNT_LIST.map((a) => a.name)).toEqual(['Alice', 'Bob', 'Charlie', 'Dave', 'Eve', 'Ferdie']);
    const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
    for (const account of DEV_ACCOUNT_LIST) expect(keyring.addFromUri(`${DEV_PHRASE}${account.uri}`).address).toBe(account.address);
  });

  it('accepts dev URIs and refuses anything else in words', () => {
    expect(devUri('  //Bob ')).toBe('//Bob');
    expect(devUri('//Alice//stash')).toBe('//Alice//stash');
    for (const bad of ['Bob', '/Bob', '//', '//Bob//', 'word '.repeat(12), `//${'a'.repeat(40)}`, '//Bob///password']) {
      expect(() => devUri(bad)).toThrow('Development key: write it as // and a name, for example //Bob');
    }
    expect(devName('//Alice//stash')).toBe('Alice stash');
  });

  it('makes a keystore of //Bob that opens with its password as Bob', async () => {
    const text = await devKeystore('//Bob', 'Bob', 'pw-123456');
    const json = JSON.parse(text);
    expect(json.address).toBe(DEV_ACCOUNT_LIST[1].address);
    expect(json.meta.name).toBe('Bob');
    const pair = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromJson(json);
    pair.decodePkcs8('pw-123456');
    expect(pair.isLocked).toBe(false);
    expect(() => new Keyring({ type: 'sr25519' }).addFromJson(json).decodePkcs8('wrong')).toThrow();
  });
});
