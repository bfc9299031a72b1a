// Token nesting addresses (from the codec) and the ledger's other special Ethereum addresses.
import { substrateAccountOf } from '../../codec/address';
import { toHex } from '../../codec/hash';
import { ETHEREUM_ZERO } from '../constants';
import type { Address } from '../types';

const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export { tokenNestingAddress, parseNestingAddress } from '../../codec/nesting';
export { isCollectionContractAddress as isCollectionAddress } from '../../codec/nesting';

export function isEthereumZero(address: Address): boolean {
  return ETH_ADDRESS.test(address) && address.toLowerCase() === ETHEREUM_ZERO;
}

/** Canonical form: Ethereum addresses in lower case, anything else unchanged. */
export function canonicalAddress(address: Address): Address {
  return ETH_ADDRESS.test(address) ? address.toLowerCase() : address;
}

/**
 * The chain's `BTreeMap<CrossAccountId, V>` of `entries`, as it decodes one from a call: ordered by
 * Substrate account (CrossAccountId's `Ord`; an Ethereum address by its mapped account), a
 * repeated account's last value kept under its first key (BTreeMap::insert keeps the key).
 */
export function chainAccountMap<V>(entries: Iterable<readonly [Address, V]>): Map<Address, V> {
  const byAccount = new Map<string, [Address, V]>();
  for (const [address, value] of entries) {
    const account = toHex(substrateAccountOf(address));
    const kept = byAccount.get(account);
    byAccount.set(account, [kept ? kept[0] : address, value]);
  }
  return new Map([...byAccount].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry));
}
