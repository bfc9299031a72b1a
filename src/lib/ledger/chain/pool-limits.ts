// Pool fairness, as Ethereum clients keep it: each account has a guaranteed share of the pool;
// beyond its share an account's extrinsics wait only while the pool is less than half full. So no
// account can keep others out (the other half is theirs, a share each), and a lone busy account on
// an idle sandbox is never throttled. Refusals are for now, not for good: they say when to retry.
import { quote } from '../../limits';
import { CHAIN_BLOCK_SECONDS, DEFAULT_POOL_PER_ACCOUNT, DEFAULT_POOL_SIZE, POOL_SIZE_CAP } from '../constants';
import type { BlockMode } from './config';

export interface PoolLimits {
  /** Extrinsics waiting in all, at most. */
  size: number;
  /** Extrinsics of one signer that may wait whatever the pool's fill. */
  perAccount: number;
}

export const DEFAULT_POOL_LIMITS: Readonly<PoolLimits> = Object.freeze({ size: DEFAULT_POOL_SIZE, perAccount: DEFAULT_POOL_PER_ACCOUNT });

/** A pool bound that is not a whole number in range; `message` names the option as its caller spells it. */
export class PoolLimitsError extends Error {
  override readonly name = 'PoolLimitsError';
}

/**
 * `limits` with the defaults filled in, or a PoolLimitsError naming the option (`names`: how the
 * caller spells them, e.g. `--pool-size`): positive whole numbers, size at most POOL_SIZE_CAP,
 * the per-account share at most the size.
 */
export function resolvePoolLimits(
  limits: Partial<PoolLimits> = {},
  names: Record<keyof PoolLimits, string> = { size: 'pool.size', perAccount: 'pool.perAccount' }
): PoolLimits {
  const size = limits.size ?? DEFAULT_POOL_SIZE;
  if (!isWholeNumber(size, 1, POOL_SIZE_CAP)) throw new PoolLimitsError(`${names.size} must be a whole number from 1 to ${POOL_SIZE_CAP}, not ${shown(size)}`);
  const perAccount = limits.perAccount ?? Math.min(DEFAULT_POOL_PER_ACCOUNT, size);
  if (!isWholeNumber(perAccount, 1, size)) {
    throw new PoolLimitsError(`${names.perAccount} must be a whole number from 1 to the pool size (${names.size}, ${size}), not ${shown(perAccount)}`);
  }
  return { size, perAccount };
}

/** Why an extrinsic may not wait now (`full`, `overShare`), or null: it may. */
export function roomFor(limits: PoolLimits, waiting: { total: number; ofSigner: number }): 'full' | 'overShare' | null {
  if (waiting.total >= limits.size) return 'full';
  if (waiting.ofSigner < limits.perAccount) return null;
  // Beyond its share: only while the pool is less than half full (2 × total < size, exact for odd sizes).
  return 2 * waiting.total < limits.size ? null : 'overShare';
}

/**
 * Seconds until a refused submit is worth trying again: the next block empties the pool.
 * Instant blocks follow at once (1, the header's least); interval blocks within one interval;
 * manual blocks come when someone seals one, at no known time: the real chain's block time, the
 * pace manual mode rehearses, so a client that honours it neither spins nor stalls a test for long.
 */
export function retryAfterSeconds(mode: BlockMode): number {
  switch (mode.kind) {
    case 'instant':
      return 1;
    case 'interval':
      return Math.max(1, Math.ceil(mode.ms / 1000));
    case 'manual':
      return CHAIN_BLOCK_SECONDS;
  }
}

function isWholeNumber(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}

/** A bad value as a message shows it: strings in quotes (so "8" is not taken for 8), cut short. */
function shown(value: unknown): string {
  return typeof value === 'string' ? `"${quote(value)}"` : quote(value);
}
