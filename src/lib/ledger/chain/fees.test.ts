import { describe, expect, it } from 'vitest';
import { UNIT } from '../constants';
import { RULE_SETS } from '../rules';
import type { Call } from '../types';
import { COLLECTION_CREATION_PRICE } from '../constants';
import { CHAIN_BYTE_FEE, inclusionFee, totalCost, weightFee } from './fees';

const transfer: Call = { name: 'unique.transfer', args: { to: 'x', collectionId: 1, tokenId: 1, value: 1n } };
const setProperties: Call = { name: 'unique.setCollectionProperties', args: { collectionId: 1, properties: [] } };

describe('batches', () => {
  const create = { name: 'unique.createCollectionEx', args: { data: { mode: 'NFT', properties: [], tokenPropertyPermissions: [] } } } as unknown as Call;

  it('weigh their own dispatch plus every call they dispatch', () => {
    const batch: Call = { name: 'utility.batch', args: { calls: [transfer, transfer] } };
    expect(weightFee(batch)).toBe(weightFee({ name: 'utility.batch', args: { calls: [] } }) + 2n * weightFee(transfer));
    expect(weightFee(batch) > weightFee(transfer)).toBe(true);
  });

  it('cost the creation price of each collection they create', () => {
    const batch: Call = { name: 'utility.batchAll', args: { calls: [create, create] } };
    expect(totalCost(batch, 100) - inclusionFee(batch, 100)).toBe(2n * COLLECTION_CREATION_PRICE);
  });
});

describe('inclusionFee', () => {
  it('spec keeps its own model', () => {
    expect(inclusionFee(transfer, 164)).toBe(inclusionFee(transfer, 164, RULE_SETS.spec));
    expect(inclusionFee(transfer, 164)).toBe((1014n * UNIT) / 10_000n);
  });

  it('unique charges the chain’s byte fee and 0.1 for a transfer', () => {
    expect(CHAIN_BYTE_FEE).toBe(250_500_000_000_000n);
    const fee = inclusionFee(transfer, 164, RULE_SETS.unique);
    expect(fee > UNIT / 10n - UNIT / 1000n && fee < UNIT / 10n + UNIT / 1000n).toBe(true);
    expect(inclusionFee(transfer, 165, RULE_SETS.unique) - fee).toBe(CHAIN_BYTE_FEE);
  });

  it('unique multiplies property calls over 2048 bytes by 1.79426', () => {
    const at = inclusionFee(setProperties, 2048, RULE_SETS.unique);
    const over = inclusionFee(setProperties, 2049, RULE_SETS.unique);
    expect(over).toBe(((at + CHAIN_BYTE_FEE) * 179_426n) / 100_000n);
    expect(inclusionFee(transfer, 2049, RULE_SETS.unique)).toBe(inclusionFee(transfer, 2048, RULE_SETS.unique) + CHAIN_BYTE_FEE);
  });
});
