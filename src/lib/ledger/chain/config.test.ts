import { describe, expect, it } from 'vitest';
import { BLOCK_INTERVAL_MS, blockModeFromName, blockModeProblem } from './config';

describe('block modes', () => {
  it('reads the names the CLI and the package take', () => {
    expect(blockModeFromName('instant')).toEqual({ kind: 'instant' });
    expect(blockModeFromName('manual')).toEqual({ kind: 'manual' });
    expect(blockModeFromName('interval:6000')).toEqual({ kind: 'interval', ms: 6000 });
    for (const name of ['', 'hourly', 'interval:', 'interval:-5', 'interval:1.5', 'interval:999999999', ' manual']) expect(blockModeFromName(name)).toBeNull();
  });

  it('bounds an interval as /dev/block-mode does, and names what is wrong', () => {
    expect(blockModeProblem({ kind: 'interval', ms: BLOCK_INTERVAL_MS.min })).toBeNull();
    expect(blockModeProblem({ kind: 'interval', ms: BLOCK_INTERVAL_MS.max })).toBeNull();
    for (const ms of [BLOCK_INTERVAL_MS.min - 1, BLOCK_INTERVAL_MS.max + 1, 150.5, Number.NaN, '200']) {
      expect(blockModeProblem({ kind: 'interval', ms })).toMatch(/^interval must be a whole number of milliseconds from 100 to 3600000$/);
    }
    expect(blockModeProblem({ kind: 'manual' })).toBeNull();
    expect(blockModeProblem({ kind: 'sometimes' })).toBe('must be instant, manual or interval:<ms>');
    expect(blockModeProblem(null)).toBe('must be instant, manual or interval:<ms>');
  });
});
