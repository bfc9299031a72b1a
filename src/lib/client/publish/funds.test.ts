import { describe, expect, it } from 'vitest';
import type { MutationRequest } from '../types';
import { aboutText, checkFunds, laterFeesOnSource, missingFundsText, scaledToTarget } from './funds';
import { buildPlan } from './plan';
import { ME, sourceOf } from './testing/source';
import { collectionUrl, tokenMapCsv, tokenMapJson, tokenPairs } from './token-map';

const OPL = { decimals: 18, unit: 'OPL' };
const opl = (whole: string) => ({ raw: (BigInt(Math.round(Number(whole) * 1000)) * 10n ** 15n).toString() });

describe('the funds a publish plan needs', () => {
  it('says how much is missing when the known fees exceed the balance, in display units', () => {
    const check = checkFunds(opl('0'), [opl('2.1')])!;
    expect(check.missing).toBe(BigInt(opl('2.1').raw));
    expect(missingFundsText(check, OPL, { estimated: 0, unknown: 2 })).toBe(
      'The signer has 0 OPL on the target and needs at least 2.1 OPL (the fee to create the collection; the fees of the other 2 extrinsics come on top): 2.1 OPL missing. Fund the signer there, then make the plan again.'
    );
    expect(missingFundsText(checkFunds(opl('1.5'), [opl('2')])!, OPL, { estimated: 0, unknown: 0 })).toMatch(/^The signer has 1\.5 OPL on the target and needs at least 2 OPL: 0\.5 OPL missing\./);
  });

  it('counts the estimated later fees in what is needed, and says which fees are estimates', () => {
    const check = checkFunds(opl('1'), [opl('0.5'), opl('1.5')])!;
    expect(check.missing).toBe(BigInt(opl('1').raw));
    expect(missingFundsText(check, OPL, { estimated: 3, unknown: 0 })).toBe(
      "The signer has 1 OPL on the target and needs about 2 OPL (the fee to create the collection, and the other 3 extrinsics' fees as estimated from this network's): 1 OPL missing. Fund the signer there, then make the plan again."
    );
    expect(missingFundsText(check, OPL, { estimated: 3, unknown: 1 })).toMatch(/needs at least 2 OPL \(.*estimated from this network's; the fees of another extrinsic come on top\)/);
  });

  it('finds nothing missing when the fees fit, and knows nothing without a balance', () => {
    expect(checkFunds(opl('2.1'), [opl('2.1')])!.missing).toBe(0n);
    expect(checkFunds(opl('1000'), [opl('2'), null, undefined])!.missing).toBe(0n);
    expect(checkFunds(null, [opl('2')])).toBeNull();
    expect(checkFunds({ raw: 'not a number' }, [opl('2')])).toBeNull();
  });

  it("scales the source's fees by the two networks' fees for the same creation, rounding up", () => {
    expect(scaledToTarget([10n, 20n], { raw: '100' }, { raw: '250' })).toBe(75n);
    expect(scaledToTarget([1n], { raw: '3' }, { raw: '1' })).toBe(1n);
    expect(scaledToTarget([10n], { raw: '0' }, { raw: '1' })).toBeNull();
    expect(scaledToTarget([10n], null, { raw: '1' })).toBeNull();
    expect(scaledToTarget([10n], { raw: '1' }, { raw: 'x' })).toBeNull();
    expect(aboutText(421_300_000_000_000_007n, OPL)).toBe('about 0.4213 OPL');
  });

  it('builds every extrinsic after the creation on the source, its own collection standing in, and counts what will not build', async () => {
    const plan = buildPlan(sourceOf(), ME, []);
    const asked: MutationRequest[] = [];
    const later = await laterFeesOnSource(
      async (call) => {
        asked.push(call);
        if (call.path === '/tokens/transfer') throw new Error('refused');
        return { fee: { raw: '7' } } as never;
      },
      plan,
      42
    );
    expect(asked.map((c) => c.path)).toEqual(['/tokens/create-multiple', '/tokens/nest', '/tokens/nest', '/tokens/transfer']);
    expect(asked.every((c) => JSON.stringify(c.body).includes('"collectionId":42'))).toBe(true);
    expect(later).toEqual({ fees: [7n, 7n, 7n], unknown: 1 });
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
