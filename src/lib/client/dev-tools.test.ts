import { describe, expect, it } from 'vitest';
import { MAX_SEAL_COUNT } from '../limits';
import { devToolsPlace } from './dev-tools';
import { balanceAmount, sealCount } from './dev-tools-input';

describe('devToolsPlace', () => {
  it('offers the dev tools in the built-in sandbox and on this machine, never on a remote service', () => {
    expect(devToolsPlace('https://app.example/sandbox/v1', true)).toBe('sandbox');
    expect(devToolsPlace('http://127.0.0.1:3000/sandbox/v1', false)).toBe('local');
    expect(devToolsPlace('http://localhost:3000/sandbox/v1', false)).toBe('local');
    expect(devToolsPlace('http://[::1]:3000/sandbox/v1', false)).toBe('local');
    expect(devToolsPlace('http://opalite.localhost/sandbox/v1', false)).toBe('local');
    expect(devToolsPlace('https://rest.unique.network/opal/v1', false)).toBe('remote');
    // A name that only starts like this machine is somebody else's.
    expect(devToolsPlace('http://localhost.evil.example/v1', false)).toBe('remote');
    expect(devToolsPlace('http://127.0.0.1.nip.io/v1', false)).toBe('remote');
    expect(devToolsPlace('not a url', false)).toBe('remote');
  });
});

describe('sealCount', () => {
  it('takes a whole number of blocks from 1 to the bound, and says why not otherwise', () => {
    expect(sealCount(' 3 ')).toBe(3);
    expect(sealCount(String(MAX_SEAL_COUNT))).toBe(MAX_SEAL_COUNT);
    for (const bad of ['0', '', '2.5', '-1', 'abc', String(MAX_SEAL_COUNT + 1), '9'.repeat(400)]) {
      expect(() => sealCount(bad), bad.slice(0, 10)).toThrow(`a whole number from 1 to ${MAX_SEAL_COUNT}`);
    }
  });
});

describe('balanceAmount', () => {
  it('takes whole units with at most the chain’s decimals, zero included', () => {
    expect(balanceAmount('1000', 18)).toBe('1000');
    expect(balanceAmount('2.50', 18)).toBe('2.5');
    expect(balanceAmount('1_000', 18)).toBe('1000');
    expect(balanceAmount('0', 18)).toBe('0');
    expect(balanceAmount('0.000', 18)).toBe('0');
    expect(() => balanceAmount('1.5', 0)).toThrow(/whole number/);
    expect(() => balanceAmount('-1', 18)).toThrow(/must be a number/);
    expect(() => balanceAmount('1'.repeat(200), 18)).toThrow(/must be a number/);
  });
});
