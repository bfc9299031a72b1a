// The real service's FeeResponse: {raw, amount, formatted, unit, decimals}.
import { formatBalance } from '@polkadot/util';
import { LruCache } from '../codec/lru';
import { toUnits } from '../ledger/units';

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

/** Whole units given as a decimal string or number into the smallest unit; null if not a valid amount. */
export function fromUnits(amount: string | number, decimals: number): bigint | null {
  const text = typeof amount === 'number' ? amount.toFixed(decimals) : amount.trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  return BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
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
