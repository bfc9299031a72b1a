// Fees against the documented formula, never against the code under test: every expected value is
// a literal worked out by hand in the comment beside it (1 OPL = 10^18).
// `spec` (decision 0001): fee = weight + 0.0001 × length; weights: transfer 0.085, balance transfer
// 0.08, mint 0.08 + 0.003 per property (per token for several), create collection 0.1 + 0.003 per
// property/permission + a 2 OPL deposit, batch 0.05 + the weights of its calls, other calls 0.05
// + 0.003 per item.
// `unique` (decision 0008): fee = weight × 0.693 + 0.0002505 × length (501/2 µ a byte), times
// 1.79426 for property calls over 2048 bytes.
import { describe, expect, it } from 'vitest';
import { RULE_SETS } from '../rules';
import type { Call } from '../types';
import { CHAIN_BYTE_FEE, inclusionFee, totalCost } from './fees';

const property = (key: string) => ({ key, value: 'v' });
const transfer: Call = { name: 'unique.transfer', args: { to: 'x', collectionId: 1, tokenId: 1, value: 1n } };
const balanceTransfer = { name: 'balances.transferKeepAlive', args: { dest: 'x', value: 1n } } as Call;
const setNoProperties: Call = { name: 'unique.setCollectionProperties', args: { collectionId: 1, properties: [] } };
const createBare = { name: 'unique.createCollectionEx', args: { data: { mode: 'NFT', properties: [], tokenPropertyPermissions: [] } } } as unknown as Call;

describe('spec rules (decision 0001)', () => {
  it('a token transfer of 164 bytes costs 0.1014', () => {
    // 0.085 + 0.0001 × 164 = 0.085 + 0.0164 = 0.1014
    expect(inclusionFee(transfer, 164)).toBe(101_400_000_000_000_000n);
    expect(inclusionFee(transfer, 164, RULE_SETS.spec)).toBe(101_400_000_000_000_000n);
    expect(totalCost(transfer, 164)).toBe(101_400_000_000_000_000n); // no deposit
  });

  it('a balance transfer of 140 bytes costs 0.094', () => {
    // 0.08 + 0.0001 × 140 = 0.08 + 0.014 = 0.094
    expect(inclusionFee(balanceTransfer, 140)).toBe(94_000_000_000_000_000n);
  });

  it('a mint with 2 properties, 200 bytes, costs 0.106', () => {
    const mint: Call = { name: 'unique.createItem', args: { collectionId: 1, owner: 'x', properties: [property('a'), property('b')] } };
    // 0.08 + 2 × 0.003 + 0.0001 × 200 = 0.08 + 0.006 + 0.02 = 0.106
    expect(inclusionFee(mint, 200)).toBe(106_000_000_000_000_000n);
  });

  it('a mint of 3 tokens with 1 property each, 400 bytes, costs 0.289', () => {
    const items = ['a', 'b', 'c'].map((k) => ({ owner: 'x', properties: [property(k)] }));
    const mint: Call = { name: 'unique.createMultipleItemsEx', args: { collectionId: 1, items } };
    // 3 × 0.08 + 3 × 0.003 + 0.0001 × 400 = 0.24 + 0.009 + 0.04 = 0.289
    expect(inclusionFee(mint, 400)).toBe(289_000_000_000_000_000n);
  });

  it('creating a collection with 1 property and 2 permissions, 300 bytes, costs 0.139 plus the 2 OPL deposit', () => {
    const create = {
      name: 'unique.createCollectionEx',
      args: { data: { mode: 'NFT', properties: [property('a')], tokenPropertyPermissions: [{ key: 'a' }, { key: 'b' }] } }
    } as unknown as Call;
    // 0.1 + 3 × 0.003 + 0.0001 × 300 = 0.1 + 0.009 + 0.03 = 0.139
    expect(inclusionFee(create, 300)).toBe(139_000_000_000_000_000n);
    // 0.139 + 2 = 2.139 (inside the documented 2.1–2.3)
    expect(totalCost(create, 300)).toBe(2_139_000_000_000_000_000n);
  });

  it('another call weighs 0.05 + 0.003 per item: setting 4 collection properties, 250 bytes, costs 0.087', () => {
    const set: Call = { name: 'unique.setCollectionProperties', args: { collectionId: 1, properties: ['a', 'b', 'c', 'd'].map(property) } };
    // 0.05 + 4 × 0.003 + 0.0001 × 250 = 0.05 + 0.012 + 0.025 = 0.087
    expect(inclusionFee(set, 250)).toBe(87_000_000_000_000_000n);
  });

  it('a batch weighs 0.05 plus every call it dispatches: two transfers, 100 bytes, cost 0.23', () => {
    const batch: Call = { name: 'utility.batch', args: { calls: [transfer, transfer] } };
    // 0.05 + 2 × 0.085 + 0.0001 × 100 = 0.05 + 0.17 + 0.01 = 0.23
    expect(inclusionFee(batch, 100)).toBe(230_000_000_000_000_000n);
  });

  it('a batch costs the deposit of each collection it creates: two bare collections, 100 bytes, 4.26 in all', () => {
    const batch: Call = { name: 'utility.batchAll', args: { calls: [createBare, createBare] } };
    // fee: 0.05 + 2 × 0.1 + 0.0001 × 100 = 0.05 + 0.2 + 0.01 = 0.26
    expect(inclusionFee(batch, 100)).toBe(260_000_000_000_000_000n);
    // 0.26 + 2 × 2 = 4.26
    expect(totalCost(batch, 100)).toBe(4_260_000_000_000_000_000n);
  });
});

describe('unique rules (decision 0008)', () => {
  it('the byte fee is the chain’s TransactionByteFee, 501/2 µ = 0.0002505', () => {
    // 501 × 10^12 / 2 = 250.5 × 10^12
    expect(CHAIN_BYTE_FEE).toBe(250_500_000_000_000n);
  });

  it('a token transfer of 164 bytes costs 0.099987, within 0.001 of 0.1', () => {
    // 0.085 × 0.693 + 0.0002505 × 164 = 0.058905 + 0.041082 = 0.099987
    expect(inclusionFee(transfer, 164, RULE_SETS.unique)).toBe(99_987_000_000_000_000n);
    // one byte more: 0.099987 + 0.0002505 = 0.1002375
    expect(inclusionFee(transfer, 165, RULE_SETS.unique)).toBe(100_237_500_000_000_000n);
  });

  it('property calls over 2048 bytes pay 1.79426 times; other calls do not', () => {
    // 0.05 × 0.693 + 0.0002505 × 2048 = 0.03465 + 0.513024 = 0.547674 (at 2048: not over)
    expect(inclusionFee(setNoProperties, 2048, RULE_SETS.unique)).toBe(547_674_000_000_000_000n);
    // (0.03465 + 0.0002505 × 2049) × 1.79426 = (0.03465 + 0.5132745) × 1.79426 = 0.5479245 × 1.79426
    //   = 5,479,245 × 10^-7 × 179,426 × 10^-5 = 983,119,013,370 × 10^-12 = 0.98311901337
    expect(inclusionFee(setNoProperties, 2049, RULE_SETS.unique)).toBe(983_119_013_370_000_000n);
    // A transfer is no property call: 0.058905 + 0.5132745 = 0.5721795
    expect(inclusionFee(transfer, 2049, RULE_SETS.unique)).toBe(572_179_500_000_000_000n);
  });
});
