// The real service's FeeResponse: {raw, amount, formatted, unit, decimals}.
import { formatBalance } from '@polkadot/util';
import { LruCache } from '../codec/lru';
import { U128_MAX } from '../ledger/pieces';
import { toUnits } from '../ledger/units';
import { quote } from '../limits';
import { validationError } from './errors';

// formatBalance costs tens of µs (it looks up the locale's separator each call), and the same
// fees recur in every build and status answer.
const formattedCache = new LruCache<string, string>(1024);

export interface FeeResponse {
  raw: string;
  amount: string;
  formatted: string;
  unit: string;
  decimals: number;
}

export { toUnits };

/** A number's decimal digits without an exponent (`1e-7` is `0.0000001`). */
function plainDecimal(n: number): string {
  const text = String(n);
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const digits = m[1] + (m[2] ?? '');
  const point = m[1].length + Number(m[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Whole units given as a decimal string or number into the smallest unit; null if not a valid
 * amount. A number is taken from its shortest decimal form, exactly (0.1 is 10^17 at 18 decimals,
 * where toFixed would give 0.100000000000000006).
 */
export function fromUnits(amount: string | number, decimals: number): bigint | null {
  const text = typeof amount === 'number' ? plainDecimal(amount) : amount.trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  return BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/**
 * `amount` (whole units, a decimal string or number) in the smallest unit, or 400 naming `name`:
 * not a non-negative decimal with at most `decimals` fraction digits (`whose`: whose decimals), or
 * more than the chain's u128 balances hold.
 */
export function rawUnits(amount: string | number, decimals: number, name = 'amount', whose = ''): bigint {
  const raw = fromUnits(amount, decimals);
  if (raw === null) throw validationError(`${name} must be a non-negative decimal number of whole units with at most ${decimals} fraction digits${whose}: ${quote(amount)}`);
  if (raw > U128_MAX) {
    throw validationError(`${name} is more than the chain holds: at most ${toUnits(U128_MAX, decimals)} whole units (2^128 - 1 in the smallest unit), got ${quote(amount)}`);
  }
  return raw;
}

function formatted(raw: bigint, decimals: number): string {
  const key = `${decimals}:${raw}`;
  let text = formattedCache.get(key);
  if (text === undefined) {
    text = formatBalance(raw, { decimals, withUnit: false, withSi: true });
    formattedCache.set(key, text);
  }
  return text;
}

export function feeResponse(raw: bigint, unit: string, decimals: number): FeeResponse {
  return {
    raw: raw.toString(),
    amount: toUnits(raw, decimals),
    formatted: formatted(raw, decimals),
    unit,
    decimals
  };
}
