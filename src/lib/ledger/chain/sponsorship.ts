// Who pays an extrinsic's fee: a confirmed collection sponsor pays for mints, transfers and
// approvals in its collection, at most once per sponsor timeout per (signer or token).
import { effectiveLimits } from '../access';
import { readMeta, sponsoredAtKey, writeMeta } from '../meta';
import type { RuleSet } from '../rules';
import type { StateTx } from '../store';
import type { Address, Call } from '../types';

interface Sponsorable {
  collectionId: number;
  /** What the rate limit is kept for. */
  slot: string;
  timeout: 'sponsorTransferTimeout' | 'sponsorApproveTimeout';
}

function sponsorable(call: Call, signer: Address): Sponsorable | null {
  switch (call.name) {
    case 'unique.createItem':
    case 'unique.createMultipleItemsEx':
      return { collectionId: call.args.collectionId, slot: `mint:${signer}`, timeout: 'sponsorTransferTimeout' };
    case 'unique.transfer':
    case 'unique.transferFrom':
      return { collectionId: call.args.collectionId, slot: `transfer:${call.args.tokenId}`, timeout: 'sponsorTransferTimeout' };
    case 'unique.approve':
      return { collectionId: call.args.collectionId, slot: `approve:${call.args.tokenId}`, timeout: 'sponsorApproveTimeout' };
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
  const key = sponsoredAtKey(what.collectionId, what.slot);
  const last = await readMeta<number | null>(state, key, null);
  if (last !== null && blockNumber - last < timeout) return self;
  const sponsor = collection.sponsorship.address;
  const account = await state.get('accounts', sponsor);
  if (!account || account.free < fee) return self;
  return { payer: sponsor, markSponsored: () => writeMeta(state, key, blockNumber) };
}
