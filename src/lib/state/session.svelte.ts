// The person's side of the app: the wallet (keys, encrypted at rest), the account that acts, and
// the balances of the wallet's accounts on the service in use.
import { untrack } from 'svelte';
import { errorText } from '../client/errors';
import type { Amount } from '../client/types';
import { connection } from './connection.svelte';
import { impersonation } from './impersonation.svelte';
import { settings } from './settings.svelte';
import type { AccountInfo } from '../wallet';
import { getWallet, type WalletState } from '../wallet/wallet.svelte';

export interface BalanceEntry {
  amount: Amount | null;
  error: string | null;
  loading: boolean;
}

class Session {
  #wallet: WalletState | null = null;
  balances = $state<Record<string, BalanceEntry>>({});

  constructor() {
    // Made at once, outside any reaction: state created inside a template's reaction is not
    // tracked by it, so a lazily made wallet would never update the first component reading it.
    if (typeof window !== 'undefined') this.#wallet = getWallet();
  }

  get wallet(): WalletState {
    this.#wallet ??= getWallet();
    return this.#wallet;
  }

  get accounts(): AccountInfo[] {
    return this.wallet.accounts;
  }

  /**
   * The account that signs: the address acted as (impersonated in a sandbox, no key), else the
   * chosen one while it is in the wallet, else the first.
   */
  get active(): AccountInfo | null {
    const acting = this.actingAccount;
    if (acting) return acting;
    const accounts = this.wallet.accounts;
    return accounts.find((a) => a.address === settings.account) ?? accounts[0] ?? null;
  }

  /** The account of the wallet with this address, or the one acted as (it has no key). */
  account(address: string): AccountInfo | undefined {
    return this.wallet.accounts.find((a) => a.address === address) ?? (impersonation.isActing(address) ? (this.actingAccount ?? undefined) : undefined);
  }

  /** The address acted as, as an account with no key in this wallet. */
  get actingAccount(): AccountInfo | null {
    const address = impersonation.actingAs;
    return address ? { address, name: 'Acting as (impersonated)', type: 'sr25519', createdAt: 0, isUnlocked: false } : null;
  }

  /**
   * After `added` joined the wallet: the account that signed before (`signer`) keeps signing, so
   * an account made as a recipient never signs by surprise; the first account signs. Answers the
   * notice, which says who signs.
   */
  keepSignerAfterAdding(added: AccountInfo, signer: AccountInfo | null, verb: 'created' | 'imported'): string {
    const name = added.name || added.address;
    if (!signer || signer.address === added.address) {
      settings.selectAccount(added.address);
      return `Account ${name} ${verb}; it signs from now on`;
    }
    settings.selectAccount(signer.address);
    return `Account ${name} ${verb}. ${signer.name || signer.address} still signs; “Sign with this account” on ${name}’s card changes that`;
  }

  /** Reads the balance of `address` on the service in use (safe to call from an effect). */
  async loadBalance(address: string): Promise<void> {
    const client = untrack(() => {
      const previous = this.balances[address];
      this.balances[address] = { amount: previous?.amount ?? null, error: null, loading: true };
      return connection.client;
    });
    try {
      const balance = await client.balance(address);
      this.balances[address] = { amount: balance.availableBalance ?? balance.freeBalance, error: null, loading: false };
    } catch (error) {
      this.balances[address] = { amount: null, error: errorText(error), loading: false };
    }
  }

  /** Counts a person's input as activity, so keys stay unlocked while they work (throttled). */
  #lastTouch = 0;
  touch(): void {
    const now = Date.now();
    if (now - this.#lastTouch < 5000) return;
    this.#lastTouch = now;
    this.wallet.touch();
  }
}

export const session = new Session();
