// Whether the signer can pay a publish plan on the target: the collection's creation fee as the
// target states it, and the other steps' fees (the target can state them only once the collection
// exists) estimated from the same calls on the source, scaled by the two networks' creation fees;
// against the signer's available balance there, in the target's smallest unit.
import { unitsText } from '../format';
import type { Amount, BuildResult, MutationRequest } from '../types';
import { callOf, type PublishPlan } from './plan';

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

/** The later steps' fees as estimated on the source: `fees` of those that built, `unknown` those that did not. */
export interface LaterFees {
  fees: bigint[];
  unknown: number;
}

/** Steps built at once on the source while estimating. */
const ESTIMATE_CONCURRENCY = 4;

/**
 * The fees of the plan's extrinsics after the creation, built on the source (its own collection
 * stands in for the one not created yet: a fee depends on the call's weight and length, not on
 * which collection). A step the source will not build is counted as unknown.
 */
export async function laterFeesOnSource(build: (call: MutationRequest) => Promise<BuildResult>, plan: PublishPlan, sourceCollectionId: number): Promise<LaterFees> {
  const calls = plan.steps.filter((s) => s.kind !== 'upload' && s.kind !== 'create').map((s) => callOf(s, plan, { collectionId: sourceCollectionId, files: {}, sourceGateway: null })!);
  const out: LaterFees = { fees: [], unknown: 0 };
  for (let i = 0; i < calls.length; i += ESTIMATE_CONCURRENCY) {
    const built = await Promise.allSettled(calls.slice(i, i + ESTIMATE_CONCURRENCY).map(build));
    for (const b of built) {
      const raw = b.status === 'fulfilled' ? b.value.fee?.raw : undefined;
      if (raw && /^\d+$/.test(raw)) out.fees.push(BigInt(raw));
      else out.unknown++;
    }
  }
  return out;
}

/** `sourceFees` in the target's terms: scaled by the target's creation fee over the source's for the same call, rounded up; null without both. */
export function scaledToTarget(sourceFees: readonly bigint[], sourceCreate: Pick<Amount, 'raw'> | null | undefined, targetCreate: Pick<Amount, 'raw'> | null | undefined): bigint | null {
  const [from, to] = [sourceCreate?.raw, targetCreate?.raw];
  if (!from || !to || !/^\d+$/.test(from) || !/^\d+$/.test(to) || BigInt(from) === 0n) return null;
  const sum = sourceFees.reduce((a, b) => a + b, 0n);
  return (sum * BigInt(to) + BigInt(from) - 1n) / BigInt(from);
}

/** An estimate in display units: "about 0.42 OPL" ("about" already says it is not exact, so no `≈`). */
export function aboutText(raw: bigint, unit: Pick<Amount, 'decimals' | 'unit'>): string {
  return `about ${unitsText(raw, unit.decimals, unit.unit).replace(/^≈/, '')}`;
}

/** What the later steps add to the plan's funds, as said to the person. */
export interface LaterFeesSaid {
  /** Extrinsics whose fee is estimated (in `needed`). */
  estimated: number;
  /** Extrinsics whose fee is not known at all (on top of `needed`). */
  unknown: number;
}

/** "The signer has 0 OPL on the target and needs about 2.1 OPL (…): 2.1 OPL missing." */
export function missingFundsText(check: FundsCheck, unit: Pick<Amount, 'decimals' | 'unit'>, later: LaterFeesSaid): string {
  const show = (raw: bigint) => unitsText(raw, unit.decimals, unit.unit);
  const extrinsics = (n: number) => (n === 1 ? 'extrinsic' : `${n} extrinsics`);
  const parts = ['the fee to create the collection'];
  if (later.estimated > 0) parts.push(`the other ${extrinsics(later.estimated)}' fees as estimated from this network's`);
  const onTop = later.unknown > 0 ? `; the fees of ${later.estimated > 0 ? 'another' : 'the other'} ${extrinsics(later.unknown)} come on top` : '';
  const what = parts.length > 1 || onTop ? ` (${parts.join(', and ')}${onTop})` : '';
  const needed = later.estimated > 0 && later.unknown === 0 ? aboutText(check.needed, unit) : `at least ${show(check.needed)}`;
  return `The signer has ${show(check.available)} on the target and needs ${needed}${what}: ${show(check.missing)} missing. Fund the signer there, then make the plan again.`;
}
