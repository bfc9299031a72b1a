// Substrate's transaction era (`sp_runtime::generic::Era`): mortal 2-byte form or immortal 0x00.

/** Mortality window the service gives new transactions, in blocks. */
export const MORTAL_PERIOD = 64;

/** The immortal era: a single zero byte. */
export const IMMORTAL_ERA: Uint8Array = new Uint8Array([0]);

export type Era = { kind: 'immortal' } | { kind: 'mortal'; period: number; phase: number };

function trailingZeros(n: number): number {
  let zeros = 0;
  while (n > 1 && (n & 1) === 0) {
    n >>>= 1;
    zeros++;
  }
  return zeros;
}

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** The longest mortal era Substrate encodes, in blocks. */
export const MAX_ERA_PERIOD = 1 << 16;

/** `Era::mortal(period, current)`: the 2 bytes of a mortal era checkpointed at block `current`. */
export function encodeMortalEra(period: number, current: number): Uint8Array {
  if (!Number.isSafeInteger(period) || period < 0) throw new RangeError(`Invalid era period: ${String(period)}`);
  if (!Number.isSafeInteger(current) || current < 0) throw new RangeError(`Invalid era block: ${String(current)}`);
  const rounded = Math.min(Math.max(nextPowerOfTwo(period), 4), MAX_ERA_PERIOD);
  const phase = current % rounded;
  const quantizeFactor = Math.max(rounded >> 12, 1);
  const encoded = Math.min(15, Math.max(1, trailingZeros(rounded) - 1)) | (Math.floor(phase / quantizeFactor) << 4);
  return new Uint8Array([encoded & 0xff, encoded >> 8]);
}

/** The era in `bytes` (exactly one era, nothing after it). */
export function decodeEra(bytes: Uint8Array): Era {
  if (bytes.length === 1 && bytes[0] === 0) return { kind: 'immortal' };
  if (bytes.length !== 2 || bytes[0] === 0) {
    throw new Error(`Invalid era: expected 0x00 or 2 bytes, got ${bytes.length} byte(s)`);
  }
  const encoded = bytes[0] | (bytes[1] << 8);
  const period = 2 << (encoded % 16);
  const quantizeFactor = Math.max(period >> 12, 1);
  const phase = (encoded >> 4) * quantizeFactor;
  // Substrate's decoder rejects the same two cases.
  if (period < 4) throw new Error(`Invalid era: period ${period} is below 4`);
  if (phase >= period) throw new Error(`Invalid era: phase ${phase} is not below period ${period}`);
  return { kind: 'mortal', period, phase };
}

/** First block in which a transaction with `era` is valid, seen from block `current`. */
export function eraBirth(era: Era, current: number): number {
  if (era.kind === 'immortal') return 0;
  const { period, phase } = era;
  return Math.floor((Math.max(current, phase) - phase) / period) * period + phase;
}

/** First block in which a transaction with `era` is no longer valid, seen from block `current`. */
export function eraDeath(era: Era, current: number): number {
  if (era.kind === 'immortal') return Infinity;
  return eraBirth(era, current) + era.period;
}
