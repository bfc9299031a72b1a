// Token nesting addresses and other special Ethereum addresses (chain §6, checklist #29).
// A private, minimal copy: src/lib/codec/nesting.ts will provide the shared one; the names here
// (`tokenNestingAddress`, `parseNestingAddress`) match it so the swap is an import change.
import { COLLECTION_ADDRESS_PREFIX, ETHEREUM_ZERO, NESTING_PREFIX } from '../constants';
import type { Address, TokenRef } from '../types';

const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const U32_MAX = 0xffff_ffff;

function hex8(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > U32_MAX) throw new RangeError(`Not a u32: ${n}`);
  return n.toString(16).padStart(8, '0');
}

/** `0xf8238ccfff8ed887463fd5e0` ‖ BE32(collectionId) ‖ BE32(tokenId), lower-case. */
export function tokenNestingAddress(collectionId: number, tokenId: number): Address {
  return NESTING_PREFIX + hex8(collectionId) + hex8(tokenId);
}

/** The token a nesting address stands for (any letter case), or null for any other address. */
export function parseNestingAddress(address: Address): TokenRef | null {
  if (!ETH_ADDRESS.test(address)) return null;
  const lower = address.toLowerCase();
  if (!lower.startsWith(NESTING_PREFIX)) return null;
  const rest = lower.slice(NESTING_PREFIX.length);
  return { collectionId: parseInt(rest.slice(0, 8), 16), tokenId: parseInt(rest.slice(8, 16), 16) };
}

/** A collection's contract address (`0x17c4e6453cc49aaaaeaca894e6d9683e` ‖ BE32(id)). */
export function isCollectionAddress(address: Address): boolean {
  return ETH_ADDRESS.test(address) && address.toLowerCase().startsWith(COLLECTION_ADDRESS_PREFIX);
}

export function isEthereumZero(address: Address): boolean {
  return ETH_ADDRESS.test(address) && address.toLowerCase() === ETHEREUM_ZERO;
}

/** Canonical form: Ethereum addresses in lower case, anything else unchanged. */
export function canonicalAddress(address: Address): Address {
  return ETH_ADDRESS.test(address) ? address.toLowerCase() : address;
}
