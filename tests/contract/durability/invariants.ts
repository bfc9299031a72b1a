// What must hold of any ledger state a host ever commits, checked on a whole dump (a `/dev/export`
// of a running host, or `store.dump()` in-process). Each check returns readable violations.
import { TREASURY } from '../../../src/lib/ledger/balances';
import { DEV_ACCOUNTS } from '../../../src/lib/ledger/chain/config';
import { DEV_ENDOWMENT } from '../../../src/lib/ledger/chain/genesis';
import { COLLECTION_CREATION_PRICE } from '../../../src/lib/ledger/constants';
import { parseNestingAddress, tokenNestingAddress } from '../../../src/lib/codec/nesting';
import { parseSnapshot, type Dump } from '../../../src/lib/ledger/snapshot';
import type { ExtrinsicRecord, TokenRecord } from '../../../src/lib/ledger/types';

/** Nothing mints native balance after genesis: the issuance is the dev accounts' endowment. */
export const ISSUANCE = BigInt(Object.keys(DEV_ACCOUNTS).length) * DEV_ENDOWMENT;

const tokenKey = (c: number, t: number) => `${c}/${t}`;
const included = (x: ExtrinsicRecord) => x.blockNumber !== null;

/** Nested tokens: the parent exists, the owner is the parent's nesting address, no cycles. */
export function nestingViolations(dump: Dump): string[] {
  const out: string[] = [];
  const tokens = new Map<string, TokenRecord>(dump.tokens.map((t) => [tokenKey(t.collectionId, t.tokenId), t]));
  for (const token of dump.tokens) {
    const name = `token ${tokenKey(token.collectionId, token.tokenId)}`;
    const ownerParent = parseNestingAddress(token.owner);
    const hasParent = token.parentCollectionId !== undefined;
    if (!hasParent) {
      if (ownerParent) out.push(`${name} is owned by the nesting address of ${tokenKey(ownerParent.collectionId, ownerParent.tokenId)} but has no parent index`);
      continue;
    }
    const parentKey = tokenKey(token.parentCollectionId!, token.parentTokenId!);
    if (!tokens.has(parentKey)) out.push(`${name} is nested under ${parentKey}, which does not exist`);
    if (token.owner !== tokenNestingAddress(token.parentCollectionId!, token.parentTokenId!)) {
      out.push(`${name} has parent ${parentKey} but its owner is ${token.owner}, not that token's nesting address`);
    }
    const seen = new Set<string>([tokenKey(token.collectionId, token.tokenId)]);
    for (let at: TokenRecord | undefined = tokens.get(parentKey); at?.parentCollectionId !== undefined; at = tokens.get(tokenKey(at.parentCollectionId, at.parentTokenId!))) {
      const key = tokenKey(at.collectionId, at.tokenId);
      if (seen.has(key)) {
        out.push(`${name} is in a nesting cycle through ${key}`);
        break;
      }
      seen.add(key);
    }
  }
  return out;
}

/** Each collection holds tokensMinted − tokensBurnt tokens, none with an id it never handed out. */
export function tokenCountViolations(dump: Dump): string[] {
  const out: string[] = [];
  const counts = new Map<number, number>();
  const collections = new Map(dump.collections.map((c) => [c.id, c]));
  for (const token of dump.tokens) {
    counts.set(token.collectionId, (counts.get(token.collectionId) ?? 0) + 1);
    const collection = collections.get(token.collectionId);
    if (!collection) out.push(`token ${tokenKey(token.collectionId, token.tokenId)} belongs to no collection`);
    else if (token.tokenId < 1 || token.tokenId > collection.tokensMinted) out.push(`token ${tokenKey(token.collectionId, token.tokenId)} has an id beyond tokensMinted ${collection.tokensMinted}`);
  }
  for (const c of dump.collections) {
    const held = counts.get(c.id) ?? 0;
    if (held !== c.tokensMinted - c.tokensBurnt) out.push(`collection ${c.id} holds ${held} tokens; tokensMinted ${c.tokensMinted} − tokensBurnt ${c.tokensBurnt} = ${c.tokensMinted - c.tokensBurnt}`);
  }
  return out;
}

/**
 * Native balances: every fee and collection deposit moves to the Treasury account and nothing
 * else creates or destroys balance, so all balances add up to the issuance, and the Treasury holds
 * exactly the fees of included extrinsics plus the deposits of collections created.
 */
export function balanceViolations(dump: Dump): string[] {
  const out: string[] = [];
  let sum = 0n;
  for (const account of dump.accounts) {
    if (account.free < 0n) out.push(`account ${account.address} has a negative balance ${account.free}`);
    sum += account.free;
  }
  if (sum !== ISSUANCE) out.push(`all balances add up to ${sum}, not the issuance ${ISSUANCE} (difference ${sum - ISSUANCE})`);
  let feesAndDeposits = 0n;
  for (const x of dump.extrinsics) {
    if (!included(x)) continue;
    feesAndDeposits += BigInt(x.fee);
    if (x.call.name === 'unique.createCollectionEx' && !x.isError) feesAndDeposits += COLLECTION_CREATION_PRICE;
  }
  const treasury = dump.accounts.find((a) => a.address === TREASURY)?.free ?? 0n;
  if (treasury !== feesAndDeposits) out.push(`the Treasury holds ${treasury}; included fees and collection deposits add up to ${feesAndDeposits}`);
  return out;
}

/** Each account's nonce is its number of included extrinsics, whose nonces are 0…n−1 without a gap. */
export function nonceViolations(dump: Dump): string[] {
  const out: string[] = [];
  const bySigner = new Map<string, number[]>();
  for (const x of dump.extrinsics) if (included(x)) bySigner.set(x.signer, [...(bySigner.get(x.signer) ?? []), x.nonce]);
  const accounts = new Map(dump.accounts.map((a) => [a.address, a]));
  for (const [signer, nonces] of bySigner) {
    const sorted = [...nonces].sort((a, b) => a - b);
    const gap = sorted.findIndex((n, i) => n !== i);
    if (gap >= 0) out.push(`${signer}: included nonces are not 0…${sorted.length - 1} (position ${gap} holds ${sorted[gap]})`);
    const nonce = accounts.get(signer)?.nonce ?? 0;
    if (nonce !== sorted.length) out.push(`${signer}: account nonce ${nonce}, but ${sorted.length} extrinsics of it are included`);
  }
  for (const account of dump.accounts) {
    if (account.nonce > 0 && !bySigner.has(account.address)) out.push(`${account.address}: account nonce ${account.nonce}, but no extrinsic of it is included`);
  }
  return out;
}

/**
 * Blocks form one chain from genesis to the head; every block's extrinsics are all stored and
 * point back at it (no partial block); every stored extrinsic has a definite status.
 */
export function blockViolations(dump: Dump): string[] {
  const out: string[] = [];
  const blocks = [...dump.blocks].sort((a, b) => a.number - b.number);
  const head = dump.meta.find((m) => m.key === 'head')?.value as { number: number; hash: string } | undefined;
  const last = blocks.at(-1);
  if (!head || !last || head.number !== last.number || head.hash !== last.hash) out.push(`meta head ${JSON.stringify(head)} is not the last block ${last?.number} ${last?.hash}`);
  blocks.forEach((b, i) => {
    if (b.number !== i) out.push(`block numbers skip: position ${i} holds block ${b.number}`);
    if (i > 0 && b.parentHash !== blocks[i - 1].hash) out.push(`block ${b.number}'s parentHash is not block ${i - 1}'s hash`);
  });
  const extrinsics = new Map(dump.extrinsics.map((x) => [x.hash, x]));
  const inBlocks = new Set<string>();
  for (const b of blocks) {
    b.extrinsics.forEach((hash, index) => {
      inBlocks.add(hash);
      const x = extrinsics.get(hash);
      if (!x) return void out.push(`block ${b.number} lists extrinsic ${hash}, which is not stored (a partial block)`);
      if (x.blockNumber !== b.number || x.blockHash !== b.hash || x.blockIndex !== index) {
        out.push(`extrinsic ${hash} is at index ${index} of block ${b.number} but records block ${x.blockNumber} ${x.blockHash} index ${x.blockIndex}`);
      }
    });
  }
  for (const x of dump.extrinsics) {
    if (included(x)) {
      if (!inBlocks.has(x.hash)) out.push(`extrinsic ${x.hash} records block ${x.blockNumber}, which does not list it`);
      if (!x.isCompleted || (x.status !== 'InBlock' && x.status !== 'Error') || x.isError !== (x.status === 'Error')) {
        out.push(`included extrinsic ${x.hash} has status ${x.status} isCompleted ${x.isCompleted} isError ${x.isError}`);
      }
    } else if (x.status !== 'Invalid' || !x.isError || !x.error?.message) {
      out.push(`extrinsic ${x.hash} is in no block yet has status ${x.status} (isError ${x.isError}, error ${JSON.stringify(x.error)}): not a definite refusal with a reason`);
    }
  }
  return out;
}

/** Waiting extrinsics: none is also stored as included or refused, none is stale. */
export function poolViolations(dump: Dump): string[] {
  const out: string[] = [];
  const stored = new Set(dump.extrinsics.map((x) => x.hash));
  const accounts = new Map(dump.accounts.map((a) => [a.address, a]));
  for (const p of dump.pool) {
    if (stored.has(p.hash)) out.push(`pool row ${p.hash} is also in the extrinsics table`);
    const nonce = accounts.get(p.signer)?.nonce ?? 0;
    if (p.nonce < nonce) out.push(`pool row ${p.hash} of ${p.signer} has nonce ${p.nonce}, already used (account nonce ${nonce})`);
  }
  return out;
}

/** Every violation of every invariant in `dump` (empty when all hold). */
export function ledgerViolations(dump: Dump): string[] {
  return [...blockViolations(dump), ...nestingViolations(dump), ...tokenCountViolations(dump), ...balanceViolations(dump), ...nonceViolations(dump), ...poolViolations(dump)];
}

/** The whole ledger of a running host, read through `GET /dev/export` and checked row by row. */
export async function exportedLedger(baseUrl: string): Promise<Dump> {
  const response = await fetch(`${baseUrl}/dev/export`);
  if (response.status !== 200) throw new Error(`GET /dev/export answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return parseSnapshot(await response.text()).tables;
}
