import { TypeRegistry } from '@polkadot/types';
import { describe, expect, it } from 'vitest';
import { IMMORTAL_ERA, MORTAL_PERIOD, decodeEra, encodeMortalEra, eraBirth, eraDeath } from './era';
import { fromHex, toHex } from './hash';

const registry = new TypeRegistry();

describe('encodeMortalEra', () => {
  it('encodes fixed vectors', () => {
    // Period 32, phase 8 (the real service's documented example).
    expect(toHex(encodeMortalEra(32, 8))).toBe('0x8400');
    expect(toHex(encodeMortalEra(64, 100))).toBe('0x4502');
    expect(toHex(encodeMortalEra(MORTAL_PERIOD, 0))).toBe('0x0500');
  });

  it('rounds the period up to a power of two within 4..65536', () => {
    expect(decodeEra(encodeMortalEra(50, 10))).toEqual({ kind: 'mortal', period: 64, phase: 10 });
    expect(decodeEra(encodeMortalEra(1, 7))).toEqual({ kind: 'mortal', period: 4, phase: 3 });
    expect(decodeEra(encodeMortalEra(1_000_000, 70_000))).toEqual({ kind: 'mortal', period: 65536, phase: 4464 });
  });

  it('quantizes the phase for periods above 4096', () => {
    expect(decodeEra(encodeMortalEra(8192, 8191))).toEqual({ kind: 'mortal', period: 8192, phase: 8190 });
  });

  it('agrees with @polkadot/types ExtrinsicEra', () => {
    const periods = [0, 1, 4, 5, 16, 32, 63, 64, 100, 256, 1024, 4096, 4097, 8192, 65536, 100_000];
    const currents = [0, 1, 7, 63, 64, 65, 1000, 76_543, 1_234_567, 4_294_967_295];
    for (const period of periods) {
      for (const current of currents) {
        const theirs = registry.createType('ExtrinsicEra', { current, period });
        expect(toHex(encodeMortalEra(period, current)), `period ${period} current ${current}`).toBe(theirs.toHex());
        // Re-decoded by polkadot: built from {current, period} it keeps the unquantized phase.
        const theirsDecoded = registry.createType('ExtrinsicEra', theirs.toU8a()).asMortalEra;
        const decoded = decodeEra(encodeMortalEra(period, current));
        if (decoded.kind !== 'mortal') throw new Error('expected mortal');
        expect(decoded.period).toBe(theirsDecoded.period.toNumber());
        expect(decoded.phase).toBe(theirsDecoded.phase.toNumber());
        for (const at of [current, current + 5, current + 200]) {
          expect(eraBirth(decoded, at)).toBe(theirsDecoded.birth(at));
          expect(eraDeath(decoded, at)).toBe(theirsDecoded.death(at));
        }
      }
    }
  });

  it('rejects negative or fractional input', () => {
    expect(() => encodeMortalEra(-1, 0)).toThrow('Invalid era period: -1');
    expect(() => encodeMortalEra(64, 1.5)).toThrow('Invalid era block: 1.5');
  });
});

describe('decodeEra', () => {
  it('decodes the immortal era', () => {
    expect(decodeEra(IMMORTAL_ERA)).toEqual({ kind: 'immortal' });
    expect(toHex(IMMORTAL_ERA)).toBe(registry.createType('ExtrinsicEra').toHex());
  });

  it('decodes what @polkadot/types decodes', () => {
    for (const hex of ['0x8400', '0x4502', '0x0500', '0x1500', '0xf500', '0x0f00', '0x0ba0', '0x0ef0']) {
      const theirs = registry.createType('ExtrinsicEra', hex);
      const ours = decodeEra(fromHex(hex));
      expect(ours).toEqual({
        kind: 'mortal',
        period: theirs.asMortalEra.period.toNumber(),
        phase: theirs.asMortalEra.phase.toNumber()
      });
    }
  });

  it.each([
    [[], 'Invalid era: expected 0x00 or 2 bytes, got 0 byte(s)'],
    [[0, 0], 'Invalid era: expected 0x00 or 2 bytes, got 2 byte(s)'],
    [[1], 'Invalid era: expected 0x00 or 2 bytes, got 1 byte(s)'],
    [[5, 0, 0], 'Invalid era: expected 0x00 or 2 bytes, got 3 byte(s)'],
    // Period 4 (low nibble 1) with phase 4.
    [[0x41, 0x00], 'Invalid era: phase 4 is not below period 4'],
    // Period 2 (low nibble 0) is below the minimum of 4.
    [[0x10, 0x00], 'Invalid era: period 2 is below 4'],
    [[0xf5, 0xff], 'Invalid era: phase 4095 is not below period 64']
  ])('rejects %j', (bytes, message) => {
    expect(() => decodeEra(new Uint8Array(bytes))).toThrow(message);
  });
});

describe('eraBirth / eraDeath', () => {
  it('gives the immortal era the whole chain', () => {
    expect(eraBirth({ kind: 'immortal' }, 123)).toBe(0);
    expect(eraDeath({ kind: 'immortal' }, 123)).toBe(Infinity);
  });

  it('bounds a mortal era by its checkpoint and period', () => {
    const era = decodeEra(encodeMortalEra(64, 100));
    expect(eraBirth(era, 100)).toBe(100);
    expect(eraDeath(era, 100)).toBe(164);
    expect(eraBirth(era, 163)).toBe(100);
    expect(eraBirth(era, 164)).toBe(164);
  });
});
