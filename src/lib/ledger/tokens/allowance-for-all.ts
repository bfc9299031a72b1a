// `unique.setAllowanceForAll` (chain: pallet_common::set_allowance_for_all, the nonfungible and
// refungible pallets' CollectionAllowance): an operator may transfer and burn every NFT or RFT
// token of the owner in the collection until it is switched off. Fungible collections refuse it.
import { readMeta } from '../meta';
import type { CallHandler } from '../context';
import { ensureCorrectReceiver, ensureListedIfRestricted } from '../pieces';
import type { StateTx } from '../store';
import type { Address } from '../types';
import { canonicalAddress } from './addresses';
import { loadTokenCollection } from './shared';

const allowanceForAllKey = (collectionId: number, owner: Address, operator: Address) => `allowanceForAll:${collectionId}:${owner}:${operator}`;

/** The chain's `allowance_for_all`: may `operator` move every token `owner` holds in the collection? */
export function allowanceForAll(state: StateTx, collectionId: number, owner: Address, operator: Address): Promise<boolean> {
  return readMeta<boolean>(state, allowanceForAllKey(collectionId, owner, operator), false);
}

export const setAllowanceForAll: CallHandler<'unique.setAllowanceForAll'> = async (ctx, { collectionId, operator: rawOperator, approve }) => {
  const { state, signer } = ctx;
  const collection = await loadTokenCollection(state, collectionId);
  const operator = canonicalAddress(rawOperator);
  await ensureListedIfRestricted(state, collection, signer, operator);
  ensureCorrectReceiver(operator, `an allowance for all tokens of collection ${collectionId}`);
  const key = allowanceForAllKey(collectionId, signer, operator);
  // false is the storage default: no row, as the chain's ValueQuery reads it.
  if (approve) await state.put('meta', { key, value: true });
  else if ((await state.get('meta', key)) !== undefined) await state.delete('meta', key);
  ctx.emit('common', 'ApprovedForAll', { collectionId, owner: signer, operator, approve });
};
