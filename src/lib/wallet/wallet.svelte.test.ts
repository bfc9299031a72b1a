import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { fakeClock, quickKeystore } from './testing';
import { Vault } from './vault';
import { WalletState } from './wallet.svelte';

const DEV_PHRASE = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
const DEV_ADDRESS = '5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV';

async function settle(state: WalletState) {
  await state.refresh();
}

describe('WalletState', () => {
  it('follows the vault: add, unlock, auto-lock, remove', async () => {
    await cryptoWaitReady();
    const clock = fakeClock();
    const vault = new Vault({ indexedDB: new IDBFactory(), IDBKeyRange, autoLockMs: 1000, ...clock });
    const state = new WalletState(vault);
    await settle(state);
    expect(state.loaded).toBe(true);
    expect(state.accounts).toEqual([]);
    await vault.add(quickKeystore(DEV_PHRASE, 'Dev', 'password1'));
    await settle(state);
    expect(state.accounts.map((a) => [a.address, a.isUnlocked])).toEqual([[DEV_ADDRESS, false]]);
    await vault.unlock(DEV_ADDRESS, 'password1');
    await settle(state);
    expect(state.accounts[0].isUnlocked).toBe(true);
    clock.advance(1000);
    await settle(state);
    expect(state.accounts[0].isUnlocked).toBe(false);
    await vault.remove(DEV_ADDRESS);
    await settle(state);
    expect(state.accounts).toEqual([]);
    state.destroy();
    vault.close();
  });
});
