// The Svelte edge of the wallet: reactive `accounts` over a Vault. No logic of its own; every
// operation is the Vault's (call `wallet.vault.unlock(…)`, `wallet.vault.sign(…)`, …) and the
// list follows through the Vault's change notifications (including auto-lock).
import { Vault, type AccountInfo, type VaultOptions } from './vault';

export class WalletState {
  /** Every account, oldest first, with its lock state. */
  accounts = $state<AccountInfo[]>([]);
  /** False until the first list has been read. */
  loaded = $state(false);
  readonly vault: Vault;
  #unsubscribe: () => void;
  #generation = 0;

  constructor(vault: Vault) {
    this.vault = vault;
    this.#unsubscribe = vault.subscribe(() => void this.refresh());
    void this.refresh();
  }

  /** Reads the list again (only the latest of overlapping reads is kept). */
  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    const accounts = await this.vault.list();
    if (generation !== this.#generation) return;
    this.accounts = accounts;
    this.loaded = true;
  }

  /** Records user activity (call it from input handlers); see `Vault.touch`. */
  touch(): void {
    this.vault.touch();
  }

  destroy(): void {
    this.#unsubscribe();
  }
}

let shared: WalletState | undefined;

/** The page's wallet (one Vault on the default database), created on first use. */
export function getWallet(options?: VaultOptions): WalletState {
  shared ??= new WalletState(new Vault(options));
  return shared;
}
