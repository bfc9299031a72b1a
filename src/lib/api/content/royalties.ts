// Royalties are stored binary-encoded (hex), not as JSON; reads show them with plain-number values.
import { Royalties } from '@unique-nft/utils/royalties';
import type { Property } from '../../ledger/types';
import { ContentError, messageOf } from './errors';

export const ROYALTIES_KEY = 'royalties';

export interface DecodedRoyaltyPart {
  version: number;
  royaltyType: string;
  decimals: number;
  value: number;
  address: string;
}

/** The decoded `royalties` property, or undefined when absent or undecodable (as the real decoder). */
export function decodeRoyalties(properties: readonly Property[]): DecodedRoyaltyPart[] | undefined {
  const encoded = properties.find((p) => p.key === ROYALTIES_KEY)?.value;
  if (!encoded) return undefined;
  try {
    // bigint does not survive JSON; the real read model types `value` as an int64 number.
    return Royalties.decode(encoded).map((part) => ({ ...part, value: Number(part.value) }));
  } catch {
    return undefined;
  }
}

/** Royalty parts as the library accepts them ({address, value, decimals?, royaltyType?, version?}). */
export function checkRoyalties(value: unknown, path: string): void {
  try {
    if (!Array.isArray(value)) throw new Error('must be an array of {address, value, decimals?, royaltyType?}');
    Royalties.validate(value);
  } catch (error) {
    throw new ContentError(`${path}: ${messageOf(error)}`);
  }
}
