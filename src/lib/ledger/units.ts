// Smallest-unit amounts in whole units, as a person reads them: the REST answers' `amount` and the
// chain errors that name an amount (a fungible collection's, with its own decimals).
import type { CollectionRecord } from './types';

/** A smallest-unit amount as a decimal string of whole units, trailing zeros stripped. */
export function toUnits(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const abs = negative ? -raw : raw;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** An amount of a Fungible collection as a person reads it (exact): whole units with its decimals, and its token prefix. */
export function collectionUnits(collection: CollectionRecord, raw: bigint): string {
  return `${toUnits(raw, collection.decimals ?? 0)}${collection.tokenPrefix ? ` ${collection.tokenPrefix}` : ''}`;
}
