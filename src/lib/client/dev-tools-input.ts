// The person's input to the Network page's dev tools, checked before anything is sent.
import { MAX_SEAL_COUNT } from '../limits';
import { unitAmount } from './pieces';

/** A whole number of blocks from 1 to MAX_SEAL_COUNT; throws a readable error otherwise. */
export function sealCount(text: string): number {
  const trimmed = text.trim();
  const count = /^\d{1,5}$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!(count >= 1 && count <= MAX_SEAL_COUNT)) throw new Error(`Blocks to seal: a whole number from 1 to ${MAX_SEAL_COUNT}`);
  return count;
}

/** A balance in whole units as typed (`1000`, `2.5`, `0`), as the decimal string /dev/set-balance takes; throws a readable error. */
export function balanceAmount(text: string, decimals: number): string {
  // Zero empties an account (unitAmount refuses it: a transfer of nothing is a mistake, a balance of nothing is not).
  if (/^\s*0+(\.0*)?\s*$/.test(text)) return '0';
  return unitAmount(text, decimals, 'Balance');
}
