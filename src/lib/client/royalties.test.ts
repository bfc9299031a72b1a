import { describe, expect, it } from 'vitest';
import { MAX_ROYALTY_RECIPIENTS, percentText, royaltiesFromRows, royaltyShares, tokenRoyalties } from './royalties';

const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

describe('royaltiesFromRows', () => {
  it('turns percents into v1 parts of 4 decimals, exactly', () => {
    expect(royaltiesFromRows([{ address: BOB, percent: '5' }, { address: CHARLIE, percent: '2.55%' }])).toEqual({
      parts: [
        { address: BOB, value: 500, decimals: 4 },
        { address: CHARLIE, value: 255, decimals: 4 }
      ],
      problems: []
    });
    expect(royaltiesFromRows([{ address: BOB, percent: '0.01' }]).parts[0].value).toBe(1);
  });

  it('names the field of each problem', () => {
    const { parts, problems } = royaltiesFromRows([
      { address: 'nobody', percent: '150' },
      { address: '', percent: '0' },
      { address: BOB, percent: '1.234' },
      { address: BOB, percent: 'five' }
    ]);
    expect(parts).toEqual([]);
    expect(problems).toEqual([
      { row: 0, field: 'address', message: 'Royalty 1 recipient: "nobody" is not an account address' },
      { row: 0, field: 'percent', message: 'Royalty 1 percent: 150% is more than 100%' },
      { row: 1, field: 'address', message: 'Royalty 2 recipient: give the address that receives it' },
      { row: 1, field: 'percent', message: 'Royalty 2 percent: must be more than 0' },
      { row: 2, field: 'percent', message: 'Royalty 3 percent: "1.234" is not a percent with at most 2 decimals (for example 5 or 2.5)' },
      { row: 3, field: 'address', message: 'Royalty 4 recipient: already receives royalty 3' },
      { row: 3, field: 'percent', message: 'Royalty 4 percent: "five" is not a percent with at most 2 decimals (for example 5 or 2.5)' }
    ]);
  });

  it('refuses a total above 100% and too many recipients', () => {
    expect(royaltiesFromRows([{ address: BOB, percent: '60' }, { address: CHARLIE, percent: '40.01' }]).problems).toEqual([
      { row: null, field: null, message: 'Royalties add up to 100.01%: together they may be at most 100%' }
    ]);
    expect(royaltiesFromRows([{ address: BOB, percent: '60' }, { address: CHARLIE, percent: '40' }]).problems).toEqual([]);
    const many = Array.from({ length: MAX_ROYALTY_RECIPIENTS + 1 }, () => ({ address: '', percent: '' }));
    expect(royaltiesFromRows(many).problems[0].message).toBe(`At most ${MAX_ROYALTY_RECIPIENTS} royalty recipients (${MAX_ROYALTY_RECIPIENTS + 1} given)`);
  });
});

describe('royaltyShares', () => {
  it('reads v1 parts and v2 percents, and skips anything else', () => {
    expect(royaltyShares([{ version: 1, royaltyType: 'DEFAULT', decimals: 4, value: 500, address: BOB }])).toEqual([{ address: BOB, percent: 5, primaryOnly: false }]);
    expect(royaltyShares([{ decimals: 6, value: '65000', address: BOB, royaltyType: 'PRIMARY_ONLY' }])).toEqual([{ address: BOB, percent: 6.5, primaryOnly: true }]);
    expect(royaltyShares([{ address: BOB, percent: 2.5 }])).toEqual([{ address: BOB, percent: 2.5, primaryOnly: false }]);
    expect(royaltyShares([null, 3, { address: 1 }, { address: BOB, value: 'x' }])).toEqual([]);
    expect(royaltyShares('0x00')).toEqual([]);
  });

  it('a token shows its own royalties, else its collection’s', () => {
    const collection = { royalties: [{ decimals: 4, value: 500, address: BOB }] };
    expect(tokenRoyalties({}, collection)).toEqual({ shares: [{ address: BOB, percent: 5, primaryOnly: false }], fromCollection: true });
    expect(tokenRoyalties({ royalties: [{ address: CHARLIE, percent: 1 }] }, collection)).toEqual({ shares: [{ address: CHARLIE, percent: 1, primaryOnly: false }], fromCollection: false });
    expect(percentText(2.5)).toBe('2.5%');
    expect(percentText(0.1 + 0.2)).toBe('0.3%');
  });
});
