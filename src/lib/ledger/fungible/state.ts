// Where a Fungible collection's ledger lives: its total supply, each holder's balance and each
// allowance, one `meta` row apiece (point lookups, as the chain's storage maps; a zero is no row).
import { readMeta } from '../meta';
import type { StateTx } from '../store';
import type { Address } from '../types';

export const FT_KEYS = {
  supply: (collectionId: number) => `ft:supply:${collectionId}`,
  balance: (collectionId: number, owner: Address) => `ft:balance:${collectionId}:${owner}`,
  allowance: (collectionId: number, owner: Address, spender: Address) => `ft:allowance:${collectionId}:${owner}:${spender}`
} as const;

/** Write `value` at `key`, or remove the row when it is zero (the chain's ValueQuery removal). */
export async function putAmount(state: StateTx, key: string, value: bigint): Promise<void> {
  if (value === 0n) {
    if ((await state.get('meta', key)) !== undefined) await state.delete('meta', key);
  } else {
    await state.put('meta', { key, value });
  }
}

export function readAmount(state: StateTx, key: string): Promise<bigint> {
  return readMeta<bigint>(state, key, 0n);
}

export const fungibleSupply = (state: StateTx, collectionId: number) => readAmount(state, FT_KEYS.supply(collectionId));
export const fungibleBalance = (state: StateTx, collectionId: number, owner: Address) => readAmount(state, FT_KEYS.balance(collectionId, owner));
export const fungibleAllowance = (state: StateTx, collectionId: number, owner: Address, spender: Address) =>
  readAmount(state, FT_KEYS.allowance(collectionId, owner, spender));
