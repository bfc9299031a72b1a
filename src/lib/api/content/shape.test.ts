import { describe, expect, it } from 'vitest';
import { copyJson, deepFreeze, isIndexKey, isVersion100 } from './shape';

describe('isVersion100', () => {
  it('accepts what the library reads as 1.0.0', () => {
    for (const version of ['1.0.0', '1.0', '1', '1.0.0-rc.1', '1.0.0+build']) expect(isVersion100(version)).toBe(true);
  });

  it('refuses other versions and non-strings', () => {
    for (const version of ['2.0.0', '1.1.0', '1.0.1', 'x', '', 100, null]) expect(isVersion100(version)).toBe(false);
  });
});

describe('isIndexKey', () => {
  it('takes canonical non-negative integers only', () => {
    expect(['0', '7', '12'].every(isIndexKey)).toBe(true);
    expect(['01', '-1', '1.0', 'a', ''].some(isIndexKey)).toBe(false);
  });
});

describe('copyJson and deepFreeze', () => {
  it('copies deeply and freezes deeply', () => {
    const frozen = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(frozen.a.b[1])).toBe(true);
    const copy = copyJson(frozen);
    expect(copy).toEqual(frozen);
    expect(Object.isFrozen(copy.a)).toBe(false);
    expect(copy.a.b).not.toBe(frozen.a.b);
  });
});
