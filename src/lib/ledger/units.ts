// Smallest-unit amounts in whole units, as a person reads them: the REST answers' `amount` and the
// chain errors that name an amount (a fungible collection's, with its own decimals).

/** A smallest-unit amount as a decimal string of whole units, trailing zeros stripped. */
export function toUnits(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const abs = negative ? -raw : raw;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
