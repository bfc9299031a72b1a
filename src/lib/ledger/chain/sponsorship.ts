// Who pays an extrinsic's fee: a confirmed collection sponsor pays for mints, transfers and
// approvals in its collection, at most once per sponsor timeout per slot: the minter; for transfers
// and approvals the token (NFT), the signer (Fungible) or the token and signer (ReFungible), as
// the chain's sponsoring baskets. Under `unique` rules exactly as runtime/common/sponsoring.rs:
// only `createItem` among mints, a transfer only when its sender holds the token, and a token
// owner's `setTokenProperties` within `sponsoredDataSize` and `sponsoredDataRateLimit`.
import { effectiveLimits } from '../access';
import { fungibleBalance } from '../fungible/state';
import { readMeta, sponsoredAtKey, writeMeta } from '../meta';
import { byteLength } from '../properties';
import { readPieces } from '../refungible/state';
import type { RuleSet } from '../rules';
import type { StateTx } from '../store';
import type { Address, Call, CollectionMode, CollectionRecord, Property } from '../types';

interface Sponsorable {
  collectionId: number;
  /** What the rate limit is kept for, in a collection of `mode`. */
  slot: (mode: CollectionMode) => string;
  /** Blocks between sponsored calls of one slot; null: never sponsored. */
  timeout: (collection: CollectionRecord) => number | null;
  /** `unique` rules: who must hold `tokenId` for the sponsor to pay. */
  holder?: { address: Address; tokenId: number };
  /** `unique` rules: bytes of property data (keys plus values); 0 is sponsored without a slot. */
  dataSize?: number;
}

/** The chain's transfer and approve baskets: per token, per signer (Fungible), per token and signer (ReFungible). */
export function tokenSlot(what: string, tokenId: number, signer: Address): (mode: CollectionMode) => string {
  return (mode) => (mode === 'NFT' ? `${what}:${tokenId}` : mode === 'Fungible' ? `${what}:ft:${signer}` : `${what}:${tokenId}:${signer}`);
}

/** The chain's `sponsored_data_rate_limit`: unset or 0 (`SponsoringDisabled`) means never sponsored. */
function dataRateLimit(collection: CollectionRecord, rules: RuleSet): number | null {
  return effectiveLimits(collection.limits, rules).sponsoredDataRateLimit || null;
}

const propertyBytes = (properties: Property[]) => properties.reduce((n, p) => n + byteLength(p.key) + byteLength(p.value), 0);

function sponsorable(call: Call, signer: Address, rules: RuleSet): Sponsorable | null {
  const chain = rules.name === 'unique';
  const transferTimeout = (collection: CollectionRecord) => effectiveLimits(collection.limits, rules).sponsorTransferTimeout;
  switch (call.name) {
    case 'unique.createItem':
      return { collectionId: call.args.collectionId, slot: () => `mint:${signer}`, timeout: transferTimeout };
    case 'unique.createMultipleItemsEx':
    case 'unique.createMultipleItems':
      // The chain's sponsoring handler knows only `create_item`.
      return chain ? null : { collectionId: call.args.collectionId, slot: () => `mint:${signer}`, timeout: transferTimeout };
    case 'unique.transfer':
    case 'unique.transferFrom': {
      // transfer_from: the chain checks (and keys the basket by) the sender `from`.
      const from = chain && call.name === 'unique.transferFrom' ? call.args.from : signer;
      return {
        collectionId: call.args.collectionId,
        slot: tokenSlot('transfer', call.args.tokenId, from),
        timeout: transferTimeout,
        ...(chain ? { holder: { address: from, tokenId: call.args.tokenId } } : {})
      };
    }
    case 'unique.approve':
      return { collectionId: call.args.collectionId, slot: tokenSlot('approve', call.args.tokenId, signer), timeout: (c) => effectiveLimits(c.limits, rules).sponsorApproveTimeout };
    case 'unique.setTokenProperties':
      if (!chain) return null;
      return {
        collectionId: call.args.collectionId,
        slot: () => `properties:${call.args.tokenId}`,
        timeout: (c) => dataRateLimit(c, rules),
        holder: { address: signer, tokenId: call.args.tokenId },
        dataSize: propertyBytes(call.args.properties)
      };
    default:
      return null;
  }
}

/** The chain's ownership check before sponsoring: NFT owner, Fungible token 0 with a balance, ReFungible pieces. */
async function holds(state: StateTx, collection: CollectionRecord, holder: { address: Address; tokenId: number }, fungibleAllowed: boolean): Promise<boolean> {
  const { address, tokenId } = holder;
  if (collection.mode === 'NFT') return (await state.get('tokens', [collection.id, tokenId]))?.owner === address;
  if (collection.mode === 'Fungible') return fungibleAllowed && tokenId === 0 && (await fungibleBalance(state, collection.id, address)) > 0n;
  return ((await readPieces(state, collection.id, tokenId))?.balances[address] ?? 0n) > 0n;
}

export interface FeePayer {
  payer: Address;
  /** Record that the sponsor paid (call inside the block transaction). */
  markSponsored(): Promise<void>;
}

/** The account that pays `fee` for `call` signed by `signer` in block `blockNumber`. */
export async function chooseFeePayer(state: StateTx, call: Call, signer: Address, fee: bigint, blockNumber: number, rules: RuleSet): Promise<FeePayer> {
  const self: FeePayer = { payer: signer, markSponsored: async () => {} };
  const what = sponsorable(call, signer, rules);
  if (!what) return self;
  const collection = await state.get('collections', what.collectionId);
  if (!collection?.sponsorship?.isConfirmed) return self;
  if (what.holder && !(await holds(state, collection, what.holder, what.dataSize === undefined))) return self;
  const sponsor = collection.sponsorship.address;
  const account = await state.get('accounts', sponsor);
  if (!account || account.free < fee) return self;
  if (what.dataSize === 0) return { payer: sponsor, markSponsored: async () => {} };
  if (what.dataSize !== undefined && what.dataSize > effectiveLimits(collection.limits, rules).sponsoredDataSize) return self;
  const timeout = what.timeout(collection);
  if (timeout === null) return self;
  const key = sponsoredAtKey(what.collectionId, what.slot(collection.mode));
  const last = await readMeta<number | null>(state, key, null);
  if (last !== null && blockNumber - last < timeout) return self;
  return { payer: sponsor, markSponsored: () => writeMeta(state, key, blockNumber) };
}
