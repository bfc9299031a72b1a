// The wallet's reads are checked before use, and amounts are said in display units.
import { describe, expect, it } from 'vitest';
import { UnexpectedAnswerError } from './wire';
import { holdingAmountText, itemAmountText, parseAccountHistory, parseHoldings, type CollectionUnit } from './wallet';

const OPL = { unit: 'OPL', decimals: 18 };
const collections: Record<number, CollectionUnit> = {
  1: { mode: 'NFT', name: 'Shells', tokenPrefix: 'SHL', decimals: 0 },
  2: { mode: 'Fungible', name: 'Sand', tokenPrefix: 'SND', decimals: 2 },
  3: { mode: 'ReFungible', name: 'Reef', tokenPrefix: 'RF', decimals: 0 }
};

describe('amounts in display units', () => {
  it('says native amounts in OPL, fungible ones with the collection’s decimals, pieces of a token, and an NFT by its token', () => {
    expect(itemAmountText({ kind: 'received', counterparty: 'x', amount: '1500000000000000000' }, collections, OPL)).toBe('1.5 OPL');
    expect(itemAmountText({ kind: 'sent', collectionId: 2, tokenId: 0, counterparty: 'x', amount: '1250' }, collections, OPL)).toBe('12.5 SND');
    expect(itemAmountText({ kind: 'received', collectionId: 3, tokenId: 7, counterparty: 'x', amount: '40' }, collections, OPL)).toBe('40 pieces of RF #7');
    expect(itemAmountText({ kind: 'received', collectionId: 3, tokenId: 7, counterparty: 'x', amount: '1' }, collections, OPL)).toBe('1 piece of RF #7');
    expect(itemAmountText({ kind: 'minted', collectionId: 1, tokenId: 3, counterparty: null, amount: '1' }, collections, OPL)).toBe('SHL #3');
    expect(itemAmountText({ kind: 'approved', collectionId: 1, tokenId: 3, counterparty: 'x', amount: '0' }, collections, OPL)).toBe('SHL #3 (revoked)');
    expect(itemAmountText({ kind: 'approved-for-all', collectionId: 1, counterparty: 'x', amount: '1' }, collections, OPL)).toBe('every token of Shells');
    // A collection the answer did not describe is still named.
    expect(itemAmountText({ kind: 'minted', collectionId: 9, tokenId: 1, counterparty: null, amount: '1' }, collections, OPL)).toBe('collection 9 #1');
  });

  it('says a holding as the wallet lists it', () => {
    const holding = (collectionId: number, amount: string, total: string) => ({ collectionId, tokenId: 1, collection: collections[collectionId], amount, total, token: null });
    expect(holdingAmountText(holding(2, '1250', '10000'))).toBe('12.5 SND');
    expect(holdingAmountText(holding(3, '40', '100'))).toBe('40 of 100 pieces');
    expect(holdingAmountText(holding(1, '1', '1'))).toBe('1');
  });
});

describe('checked answers', () => {
  it('reads a page of holdings and of history', () => {
    expect(parseHoldings({ holdings: [{ collectionId: 2, tokenId: 0, collection: collections[2], amount: '5', total: '9', token: null }], next: '2:0' }).next).toBe('2:0');
    const page = parseAccountHistory({
      entries: [{ blockNumber: 3, blockHash: '0x', timestamp: 1, extrinsic: null, items: [{ kind: 'fee', counterparty: null, amount: '7' }], more: 0, balance: { before: '10', after: '3' } }],
      collections: { 2: collections[2] },
      next: null
    });
    expect(page.entries[0].items).toEqual([{ kind: 'fee', counterparty: null, amount: '7' }]);
    expect(page.collections[2]).toEqual(collections[2]);
  });

  it('refuses an answer of the wrong shape, naming the field', () => {
    expect(() => parseHoldings({ holdings: [{ collectionId: 2, tokenId: 0, collection: { ...collections[2], mode: 'Gold' }, amount: '5', total: '9', token: null }], next: null })).toThrow(UnexpectedAnswerError);
    expect(() => parseAccountHistory({ entries: [], collections: {}, next: 'soon' })).toThrow(/next/);
    expect(() => parseAccountHistory({ entries: [{ blockNumber: 1, blockHash: '', timestamp: 0, extrinsic: null, items: [{ kind: 'stolen', counterparty: null, amount: '1' }], more: 0, balance: null }], collections: {}, next: null })).toThrow(/items\[0\]\.kind/);
    expect(() => parseHoldings({ holdings: [{ collectionId: 2, tokenId: 0, collection: collections[2], amount: '-5', total: '9', token: null }], next: null })).toThrow(/amount/);
  });
});
