import { describe, expect, it } from 'vitest';
import { checkFunds, missingFundsText } from './funds';
import { collectionUrl, tokenMapCsv, tokenMapJson, tokenPairs } from './token-map';

const OPL = { decimals: 18, unit: 'OPL' };
const opl = (whole: string) => ({ raw: (BigInt(Math.round(Number(whole) * 1000)) * 10n ** 15n).toString() });

describe('the funds a publish plan needs', () => {
  it('says how much is missing when the known fees exceed the balance, in display units', () => {
    const check = checkFunds(opl('0'), [opl('2.1')])!;
    expect(check.missing).toBe(BigInt(opl('2.1').raw));
    expect(missingFundsText(check, OPL, 2)).toBe(
      'The signer has 0 OPL on the target and needs at least 2.1 OPL (the fee to create the collection; the fees of the other 2 extrinsics come on top): 2.1 OPL missing. Fund the signer there, then make the plan again.'
    );
    expect(missingFundsText(checkFunds(opl('1.5'), [opl('2')])!, OPL, 0)).toMatch(/^The signer has 1\.5 OPL on the target and needs at least 2 OPL: 0\.5 OPL missing\./);
  });

  it('finds nothing missing when the fees fit, and knows nothing without a balance', () => {
    expect(checkFunds(opl('2.1'), [opl('2.1')])!.missing).toBe(0n);
    expect(checkFunds(opl('1000'), [opl('2'), null, undefined])!.missing).toBe(0n);
    expect(checkFunds(null, [opl('2')])).toBeNull();
    expect(checkFunds({ raw: 'not a number' }, [opl('2')])).toBeNull();
  });
});

describe('the token map of a publish', () => {
  const pairs = tokenPairs({ 5: 4, 1: 1, 4: 3, 2: 2 });

  it('lists source → target ids in the target order', () => {
    expect(pairs).toEqual([
      [1, 1],
      [2, 2],
      [4, 3],
      [5, 4]
    ]);
  });

  it('downloads as CSV and as JSON that name both collections', () => {
    expect(tokenMapCsv(pairs)).toBe('source_token_id,target_token_id\n1,1\n2,2\n4,3\n5,4\n');
    const doc = JSON.parse(tokenMapJson({ source: { baseUrl: 's', collectionId: 7 }, target: { baseUrl: 't', collectionId: 3 } }, pairs));
    expect(doc.target).toEqual({ baseUrl: 't', collectionId: 3 });
    expect(doc.tokens[2]).toEqual({ source: 4, target: 3 });
  });

  it('links the published collection on the target’s REST service', () => {
    expect(collectionUrl('https://rest.unique.network/opal/v1/', 12)).toBe('https://rest.unique.network/opal/v1/collections?collectionId=12');
  });
});
