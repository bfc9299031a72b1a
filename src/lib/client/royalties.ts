// Royalties as Unique schema v1 holds them (`@unique-nft/schemas` 0.1.8, `schema.royalties`): a
// part per recipient, `value` in units of 10^-decimals of the price, so with 4 decimals 5% is 500.
// Rows a person typed become parts, each problem named by the field it is in; parts a service
// answers become percentages to show.
import { quote } from '../limits';
import { accountAddress, sameAddress } from './address';

/** The decimals the form writes: a percent with up to 2 decimals is a whole number of 1/10000. */
export const ROYALTY_DECIMALS = 4;
/** A sane bound for one collection (every sale pays each recipient). */
export const MAX_ROYALTY_RECIPIENTS = 10;

/** One row of the form, as typed. */
export interface RoyaltyRow {
  address: string;
  percent: string;
}

/** A royalty part as the v1 schema takes it on create. */
export interface RoyaltyPart {
  address: string;
  value: number;
  decimals: number;
}

/** A problem of one field (`address`/`percent` of row `row`, counted from 0), or of the whole list. */
export interface RoyaltyProblem {
  row: number | null;
  field: 'address' | 'percent' | null;
  message: string;
}

/** A recipient's share, as shown. */
export interface RoyaltyShare {
  address: string;
  percent: number;
  primaryOnly: boolean;
}

const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

export function newRoyaltyRow(): RoyaltyRow {
  return { address: '', percent: '' };
}

/** "Royalty 2 percent" as the screen labels the field. */
export function royaltyLabel(row: number, field: 'address' | 'percent'): string {
  return `Royalty ${row + 1} ${field === 'address' ? 'recipient' : 'percent'}`;
}

function percentOf(text: string): number | string {
  const trimmed = text.trim().replace(/%$/, '').trim();
  if (trimmed === '') return 'give a percent, for example 5 or 2.5';
  if (!PERCENT.test(trimmed)) return `"${quote(trimmed)}" is not a percent with at most 2 decimals (for example 5 or 2.5)`;
  const percent = Number(trimmed);
  if (percent <= 0) return 'must be more than 0';
  if (percent > 100) return `${trimmed}% is more than 100%`;
  return percent;
}

/** Percent text → the part's whole-number value (2.5% → 250 with 4 decimals), exactly. */
function valueOf(percentText: string): number {
  const [whole, fraction = ''] = percentText.trim().replace(/%$/, '').trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * The parts of `rows`, or every problem found: each recipient an address given once, each percent
 * above 0 with at most 2 decimals, the total at most 100%, at most MAX_ROYALTY_RECIPIENTS rows.
 */
export function royaltiesFromRows(rows: readonly RoyaltyRow[]): { parts: RoyaltyPart[]; problems: RoyaltyProblem[] } {
  const problems: RoyaltyProblem[] = [];
  if (rows.length > MAX_ROYALTY_RECIPIENTS) {
    problems.push({ row: null, field: null, message: `At most ${MAX_ROYALTY_RECIPIENTS} royalty recipients (${rows.length} given)` });
  }
  const parts: RoyaltyPart[] = [];
  const recipients: string[] = [];
  let total = 0;
  rows.forEach((row, i) => {
    let address: string | null = null;
    try {
      address = accountAddress(row.address, royaltyLabel(i, 'address'));
      const earlier = recipients.findIndex((r) => sameAddress(r, address));
      recipients[i] = address;
      if (earlier >= 0) {
        problems.push({ row: i, field: 'address', message: `${royaltyLabel(i, 'address')}: already receives royalty ${earlier + 1}` });
        address = null;
      }
    } catch (error) {
      const message = row.address.trim() === '' ? `${royaltyLabel(i, 'address')}: give the address that receives it` : (error as Error).message;
      problems.push({ row: i, field: 'address', message });
    }
    const percent = percentOf(row.percent);
    if (typeof percent === 'string') {
      problems.push({ row: i, field: 'percent', message: `${royaltyLabel(i, 'percent')}: ${percent}` });
      return;
    }
    total += valueOf(row.percent);
    if (address) parts.push({ address, value: valueOf(row.percent), decimals: ROYALTY_DECIMALS });
  });
  if (total > 100 * 100) {
    problems.push({ row: null, field: null, message: `Royalties add up to ${total / 100}%: together they may be at most 100%` });
  }
  return problems.length ? { parts: [], problems } : { parts, problems };
}

/** A percent as text: 5 → "5%", 2.5 → "2.5%". */
export function percentText(percent: number): string {
  return `${Number(percent.toFixed(4))}%`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The shares of a `royalties` read (v1 parts {address, value, decimals, royaltyType}, or v2
 * {address, percent, isPrimaryOnly}); anything else in it is left out, since a remote service
 * answers it.
 */
export function royaltyShares(value: unknown): RoyaltyShare[] {
  if (!Array.isArray(value)) return [];
  const shares: RoyaltyShare[] = [];
  for (const part of value.slice(0, 100)) {
    if (!isRecord(part) || typeof part.address !== 'string') continue;
    if (typeof part.percent === 'number' && Number.isFinite(part.percent)) {
      shares.push({ address: part.address, percent: part.percent, primaryOnly: part.isPrimaryOnly === true });
      continue;
    }
    const amount = typeof part.value === 'number' || typeof part.value === 'string' ? Number(part.value) : Number.NaN;
    const decimals = typeof part.decimals === 'number' ? part.decimals : ROYALTY_DECIMALS;
    if (!Number.isFinite(amount) || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) continue;
    shares.push({ address: part.address, percent: amount / 10 ** (decimals - 2), primaryOnly: part.royaltyType === 'PRIMARY_ONLY' });
  }
  return shares;
}

/** A token's royalties: its own, else its collection's (as the chain's marketplaces read them). */
export function tokenRoyalties(token: unknown, collectionSchema: unknown): { shares: RoyaltyShare[]; fromCollection: boolean } {
  const own = royaltyShares(isRecord(token) ? token.royalties : undefined);
  if (own.length) return { shares: own, fromCollection: false };
  return { shares: royaltyShares(isRecord(collectionSchema) ? collectionSchema.royalties : undefined), fromCollection: true };
}
