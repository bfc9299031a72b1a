// Who pays an extrinsic's fee: a confirmed collection sponsor pays for mints, transfers and
// approvals in its collection, at most once per sponsor timeout per slot: the minter; for transfers
// and approvals the token (NFT), the signer (Fungible) or the token and signer (ReFungible), as
// the chain's sponsoring baskets.
import { effectiveLimits } from '../access';
import { readMeta, sponsoredAtKey, writeMeta } from '../meta';
import type { RuleSet } from '../rules';
import type { StateTx } from '../store';
import type { Address, Call, CollectionMode } from '../types';

interface Sponsorable {
  collectionId: number;
  /** What the rate limit is kept for, in a collection of `mode`. */
  slot: (mode: CollectionMode) => string;
  timeout: 'sponsorTransferTimeout' | 'sponsorApproveTimeout';
}

/** The chain's transfer and approve baskets: per token, per signer (Fungible), per token and signer (ReFungible). */
export function tokenSlot(what: string, tokenId: number, signer: Address): (mode: CollectionMode) => string {
  return (mode) => (mode === 'NFT' ? `${what}:${tokenId}` : mode === 'Fungible' ? `${what}:ft:${signer}` : `${what}:${tokenId}:${signer}`);
}

function sponsorable(call: Call, signer: Address): Sponsorable | null {
  switch (call.name) {
    case 'unique.createItem':
    case 'unique.createMultipleItemsEx':
    case 'unique.createMultipleItems':
      return { collectionId: call.args.collectionId, slot: () => `mint:${signer}`, timeout: 'sponsorTransferTimeout' };
    case 'unique.transfer':
    case 'unique.transferFrom':
      return { collectionId: call.args.collectionId, slot: tokenSlot('transfer', call.args.tokenId, signer), timeout: 'sponsorTransferTimeout' };
    case 'unique.approve':
      return { collectionId: call.args.collectionId, slot: tokenSlot('approve', call.args.tokenId, signer), timeout: 'sponsorApproveTimeout' };
    default:
      return null;
  }
}

export interface FeePayer {
  payer: Address;
  /** Record that the sponsor paid (call inside the block transaction). */
  markSponsored(): Promise<void>;
}

/** The account that pays `fee` for `call` signed by `signer` in block `blockNumber`. */
export async function chooseFeePayer(state: StateTx, call: Call, signer: Address, fee: bigint, blockNumber: number, rules: RuleSet): Promise<FeePayer> {
  const self: FeePayer = { payer: signer, markSponsored: async () => {} };
  const what = sponsorable(call, signer);
  if (!what) return self;
  const collection = await state.get('collections', what.collectionId);
  if (!collection?.sponsorship?.isConfirmed) return self;
  const timeout = effectiveLimits(collection.limits, rules)[what.timeout];
  const key = sponsoredAtKey(what.collectionId, what.slot(collection.mode));
  const last = await readMeta<number | null>(state, key, null);
  if (last !== null && blockNumber - last < timeout) return self;
  const sponsor = collection.sponsorship.address;
  const account = await state.get('accounts', sponsor);
  if (!account || account.free < fee) return self;
  return { payer: sponsor, markSponsored: () => writeMeta(state, key, blockNumber) };
}
