// Token nesting addresses (from the codec) and the ledger's other special Ethereum addresses.
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
