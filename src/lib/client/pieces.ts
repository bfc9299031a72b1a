// Amounts a person types for fungible and refungible tokens, and the shares they hold, in words.
// Checked here before anything is built, so a mistake is named by its field on screen.
import { sameAddress } from './address';

/** Longest amount a field accepts: a u128 has 39 digits. */
const MAX_AMOUNT_DIGITS = 39;
const U128_MAX = (1n << 128n) - 1n;

/** Most decimals a fungible collection may have (the chain's MAX_DECIMAL_POINTS). */
export const MAX_DECIMALS = 30;

/** The decimals typed into the field `label`: a whole number from 0 to MAX_DECIMALS. */
export function decimalPlaces(text: string, label: string): number {
  const trimmed = text.trim();
  if (!/^\d{1,2}$/.test(trimmed) || Number(trimmed) > MAX_DECIMALS) throw new Error(`${label} must be a whole number from 0 to ${MAX_DECIMALS}`);
  return Number(trimmed);
}

/** A whole, positive number of pieces typed into the field `label` (at most `max`). */
export function wholePieces(text: string, label: string, max: bigint = U128_MAX): bigint {
  const trimmed = text.trim().replace(/[_\s]/g, '');
  if (trimmed === '') throw new Error(`${label}: enter a number of pieces`);
  if (trimmed.length > MAX_AMOUNT_DIGITS || !/^\d+$/.test(trimmed)) throw new Error(`${label} must be a whole number, like 100`);
  const value = BigInt(trimmed);
  if (value === 0n) throw new Error(`${label} must be at least 1`);
  if (value > max) throw new Error(`${label} may be at most ${max}`);
  return value;
}

/**
 * A positive amount of a fungible collection with `decimals` decimals, as the decimal string the
 * service takes (`"12.5"`); more fraction digits than the collection has are refused, not rounded.
 */
export function unitAmount(text: string, decimals: number, label: string): string {
  const trimmed = text.trim().replace(/[_\s]/g, '');
  if (trimmed === '') throw new Error(`${label}: enter an amount`);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(trimmed);
  if (!match || trimmed.length > MAX_AMOUNT_DIGITS + 1) throw new Error(`${label} must be a number, like 10 or 2.5`);
  const [, whole, fraction = ''] = match;
  if (fraction.length > decimals) {
    throw new Error(decimals === 0 ? `${label} must be a whole number: this collection has no decimals` : `${label} may have at most ${decimals} digits after the point`);
  }
  const raw = BigInt(whole + fraction.padEnd(decimals, '0'));
  if (raw === 0n) throw new Error(`${label} must be more than 0`);
  if (raw > U128_MAX) throw new Error(`${label} is too large`);
  return fraction.replace(/0+$/, '') ? `${BigInt(whole)}.${fraction.replace(/0+$/, '')}` : String(BigInt(whole));
}

/** `part` of `total` as a percentage a person reads: "25%", "33.33%", "< 0.01%", "99.99%" (never 100% short of it). */
export function shareText(part: bigint, total: bigint): string {
  if (total <= 0n || part <= 0n) return '0%';
  if (part >= total) return '100%';
  // Percent × 100, rounded to the nearest (so shares add up to 100% as closely as they can), but
  // never shown as 0% or 100% while it is neither.
  const rounded = (part * 20_000n + total) / (2n * total);
  if (rounded === 0n) return '< 0.01%';
  const hundredths = rounded >= 10_000n ? 9_999n : rounded;
  const whole = hundredths / 100n;
  const rest = hundredths % 100n;
  return rest === 0n ? `${whole}%` : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}%`;
}

/** The owner the service answers for a ReFungible token split between holders (the chain's ADDRESS_FOR_PARTIALLY_OWNED_TOKENS). */
const SEVERAL_HOLDERS_OWNER = '0xffffffffffffffffffffffffffffffffffffffff';

/** Whether `owner` stands for a ReFungible token split between several holders (it has no single owner). */
export function hasSeveralHolders(owner: string | null | undefined): boolean {
  return owner?.toLowerCase() === SEVERAL_HOLDERS_OWNER;
}

export interface Holder {
  address: string;
  /** The name the person knows this account by, when it is theirs. */
  name?: string;
  amount: bigint;
}

/** Candidate addresses without repeats (an account is its public key, however it is spelled). */
export function distinctAddresses(candidates: readonly (string | null | undefined)[], limit: number): string[] {
  const out: string[] = [];
  for (const candidate of candidates) {
    if (!candidate || out.some((known) => sameAddress(known, candidate))) continue;
    out.push(candidate);
    if (out.length >= limit) break;
  }
  return out;
}

/** Holders with something, largest first (ties by address, so the order is stable). */
export function holdersBySize(holders: readonly Holder[]): Holder[] {
  return holders
    .filter((h) => h.amount > 0n)
    .sort((a, b) => (a.amount === b.amount ? a.address.localeCompare(b.address) : a.amount > b.amount ? -1 : 1));
}
