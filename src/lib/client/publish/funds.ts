// Whether the signer can pay a publish plan on the target: the fees known before the run (the
// collection's creation; the other steps' fees are known only once it exists) against the
// signer's available balance there, in the target's smallest unit. Pure.
import { unitsText } from '../format';
import type { Amount } from '../types';

export interface FundsCheck {
  /** The known fees together, in the smallest unit. */
  needed: bigint;
  available: bigint;
  /** What the signer lacks (0 when the known fees fit). */
  missing: bigint;
}

/** The known `fees` against `available`; null when the balance is unknown (the run's sign dialog checks again). */
export function checkFunds(available: Pick<Amount, 'raw'> | null, fees: readonly (Pick<Amount, 'raw'> | null | undefined)[]): FundsCheck | null {
  if (!available || !/^\d+$/.test(available.raw)) return null;
  const needed = fees.reduce((sum, fee) => sum + (fee && /^\d+$/.test(fee.raw) ? BigInt(fee.raw) : 0n), 0n);
  const have = BigInt(available.raw);
  return { needed, available: have, missing: needed > have ? needed - have : 0n };
}

/** "The signer has 0 OPL on the target and needs at least 2.1 OPL: 2.1 OPL missing." */
export function missingFundsText(check: FundsCheck, unit: Pick<Amount, 'decimals' | 'unit'>, laterFees: number): string {
  const show = (raw: bigint) => unitsText(raw, unit.decimals, unit.unit);
  const later = laterFees > 0 ? ` (the fee to create the collection; the fees of the other ${laterFees === 1 ? 'extrinsic come' : `${laterFees} extrinsics come`} on top)` : '';
  return `The signer has ${show(check.available)} on the target and needs at least ${show(check.needed)}${later}: ${show(check.missing)} missing. Fund the signer there, then make the plan again.`;
}
