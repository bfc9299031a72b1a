// Token nesting addresses and collection contract addresses (Ethereum-form addresses that carry ids).
import { ethereumEncode } from '@polkadot/util-crypto';
import { InvalidAddressError, isEthereumAddress } from './address';

/** 12-byte prefix of a token's nesting address: prefix ‖ BE32(collectionId) ‖ BE32(tokenId). */
export const NESTING_ADDRESS_PREFIX = '0xf8238ccfff8ed887463fd5e0';
/** 16-byte prefix of a collection's contract address: prefix ‖ BE32(collectionId). */
export const COLLECTION_ADDRESS_PREFIX = '0x17c4e6453cc49aaaaeaca894e6d9683e';

const MAX_U32 = 0xffff_ffff;

function assertU32(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_U32) {
    throw new RangeError(`${what} must be an integer from 0 to 4294967295, got ${String(value)}`);
  }
}

function hex8(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/** The canonical (lower-case) address that owns everything nested directly under token (c, t). */
export function tokenNestingAddress(collectionId: number, tokenId: number): string {
  assertU32(collectionId, 'Collection id');
  assertU32(tokenId, 'Token id');
  return NESTING_ADDRESS_PREFIX + hex8(collectionId) + hex8(tokenId);
}

/** The ids behind a nesting address (any case), or null for any other string. */
export function parseNestingAddress(addr: string): { collectionId: number; tokenId: number } | null {
  if (!isEthereumAddress(addr)) return null;
  const lower = addr.toLowerCase();
  if (!lower.startsWith(NESTING_ADDRESS_PREFIX)) return null;
  // Id 0 is returned as is: the ledger decides what an unknown or zero id means.
  return {
    collectionId: parseInt(lower.slice(26, 34), 16),
    tokenId: parseInt(lower.slice(34, 42), 16)
  };
}

/** The contract address of collection `id` (lower-case); tokens can never be nested there. */
export function collectionContractAddress(id: number): string {
  assertU32(id, 'Collection id');
  return COLLECTION_ADDRESS_PREFIX + hex8(id);
}

/** True iff `addr` (any case) is some collection's contract address. */
export function isCollectionContractAddress(addr: string): boolean {
  return isEthereumAddress(addr) && addr.toLowerCase().startsWith(COLLECTION_ADDRESS_PREFIX);
}

/** EIP-55 mixed-case form of an Ethereum address, as JS helpers of the real service print it. */
export function checksumAddress(addr: string): string {
  if (!isEthereumAddress(addr)) throw new InvalidAddressError(addr);
  return ethereumEncode(addr.toLowerCase());
}
