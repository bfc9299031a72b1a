// What the explorer reads of history: the changes of one included extrinsic, a page of blocks,
// and an account's history (every change of its balance, with the extrinsic that made it). Each
// is a bounded number of indexed reads, never a scan of the chain.
import { describeChanges, type Change } from '../changes';
import type { HistoryRecord, Keys, QueryTx, StateTable } from '../store';
import type { AccountRecord, Address, BlockRecord, ExtrinsicRecord } from '../types';
import { HistoryError } from './errors';

/** Pages are at most this long. */
export const MAX_PAGE = 100;

export interface ExtrinsicChanges {
  record: ExtrinsicRecord;
  block: BlockRecord;
  changes: Change[];
}

/** The changes of the extrinsic `hash`, as the block that included it recorded them. */
export async function changesOfExtrinsic(tx: QueryTx, hash: string): Promise<ExtrinsicChanges | undefined> {
  const record = await tx.get('extrinsics', hash);
  if (!record) return undefined;
  if (record.blockNumber === null || record.blockIndex === null) {
    throw new HistoryError('unknown', `Extrinsic ${hash} is not in a block (status ${record.status}): it changed nothing`);
  }
  const block = await tx.get('blocks', record.blockNumber);
  // Its block was reverted away (and the number may name another block now): it changed nothing that stands.
  if (!block || block.hash !== record.blockHash) throw new HistoryError('unknown', `Extrinsic ${hash} was reverted with its block: it changed nothing that stands`);
  // A block's changes are kept while reads at the block before it are answered.
  const start = await tx.history.start();
  if (record.blockNumber <= start) {
    throw new HistoryError('pruned', `The changes of block ${record.blockNumber} are no longer kept: history starts at block ${start} (see --history)`);
  }
  const rows = (await tx.history.changesOfBlock(record.blockNumber)).filter((change) => change.extrinsic === record.blockIndex);
  return { record, block, changes: describeChanges(rows) };
}

/** Blocks from `from` down (the head when absent), newest first, at most `limit`. */
export async function blocksFrom(tx: QueryTx, from: number | undefined, limit: number): Promise<BlockRecord[]> {
  const head = (await tx.headBlock())?.number ?? 0;
  // Never count down through numbers above the head: `from` is the client's.
  const top = Math.min(from ?? head, head);
  const out: BlockRecord[] = [];
  for (let n = top; n >= 0 && out.length < Math.min(limit, MAX_PAGE); n--) {
    const block = await tx.get('blocks', n);
    if (block) out.push(block);
  }
  return out;
}

/** Where a change was made: its block, and the extrinsic that made it (null: the block itself). */
export interface ChangePlace {
  blockNumber: number;
  blockHash: string;
  timestamp: number;
  extrinsic: { hash: string; section: string; method: string; signer: Address } | null;
}

export interface BalanceEntry extends ChangePlace {
  /** Free balance before and after, smallest unit, decimal strings. */
  before: string;
  after: string;
}

export interface TokenEntry extends ChangePlace {
  /** What the extrinsic changed of the token (its owner, properties, approval; minted or burned). */
  changes: Change[];
}

export interface Place {
  block: number;
  seq: number;
}

/**
 * One row's changes before `before` (newest first), from at most `limit` of them, each with where
 * it was made and what `entry` makes of it (null: left out); `next` is where the following page
 * starts (null at the start of history).
 */
async function rowHistory<N extends StateTable, E>(
  tx: QueryTx,
  table: N,
  key: Keys[N],
  before: Place | undefined,
  limit: number,
  entry: (change: HistoryRecord<N>, place: ChangePlace) => E | null
): Promise<{ entries: E[]; next: Place | null }> {
  const size = Math.min(limit, MAX_PAGE);
  const changes = await tx.history.changesOfRow(table, key, before, size);
  const blocks = new Map<number, BlockRecord | undefined>();
  const entries: E[] = [];
  for (const change of changes) {
    if (!blocks.has(change.block)) blocks.set(change.block, await tx.get('blocks', change.block));
    const block = blocks.get(change.block);
    const hash = change.extrinsic === null ? undefined : block?.extrinsics[change.extrinsic];
    const record = hash ? await tx.get('extrinsics', hash) : undefined;
    const made = entry(change, {
      blockNumber: change.block,
      blockHash: block?.hash ?? '',
      timestamp: block?.timestamp ?? 0,
      extrinsic: record ? { hash: record.hash, section: record.callMethod.section, method: record.callMethod.method, signer: record.signer } : null
    });
    if (made !== null) entries.push(made);
  }
  const last = changes[changes.length - 1];
  return { entries, next: changes.length === size ? { block: last.block, seq: last.seq } : null };
}

/** The account's balance changes before `before`, newest first (a change of its nonce alone is left out). */
export function balanceHistory(tx: QueryTx, address: Address, before: Place | undefined, limit: number): Promise<{ entries: BalanceEntry[]; next: Place | null }> {
  const free = (row: AccountRecord | undefined) => (row?.free ?? 0n).toString();
  return rowHistory(tx, 'accounts', address, before, limit, (change, place) =>
    free(change.before) === free(change.after) ? null : { ...place, before: free(change.before), after: free(change.after) }
  );
}

/** A token's changes before `before`, newest first. */
export function tokenHistory(tx: QueryTx, token: [number, number], before: Place | undefined, limit: number): Promise<{ entries: TokenEntry[]; next: Place | null }> {
  return rowHistory(tx, 'tokens', token, before, limit, (change, place) => ({ ...place, changes: describeChanges([change]) }));
}

/** What one event of an extrinsic did to an account, as a wallet shows it. */
export interface AccountItem {
  kind: 'received' | 'sent' | 'minted' | 'burned' | 'approved' | 'approved-for-all' | 'fee';
  /** Absent for the native token. */
  collectionId?: number;
  tokenId?: number;
  /** The other side: sender, recipient, spender, operator, who signed a mint or burn of another's (null: none). */
  counterparty: Address | null;
  /** Smallest unit (native, fungible), pieces (refungible) or 1 (NFT), a decimal string; for approved-for-all "1" on, "0" off. */
  amount: string;
}

export interface AccountEntry extends ChangePlace {
  items: AccountItem[];
  /** Items of this extrinsic left out (a batch may name the account thousands of times). */
  more: number;
  /** The native balance before and after it, smallest unit, when it changed. */
  balance: { before: string; after: string } | null;
}

/** What a wallet needs of each collection its history names: the unit and its decimals. */
export interface CollectionUnit {
  mode: string;
  name: string;
  tokenPrefix: string;
  decimals: number;
}

/** Items one entry shows at most. */
export const MAX_ITEMS_PER_ENTRY = 20;
/** Changes one page reads at most (an extrinsic that changed more for the account continues on the next page). */
const MAX_CHANGES_PER_PAGE = 2_000;
const CHANGES_PER_READ = 200;

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : '0');
const numberOrUndefined = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** The items an event makes for `account` (none when it does not name it). */
function itemsOf(event: { section: string; method: string; data: Record<string, unknown> }, account: Address): AccountItem[] {
  const d = event.data;
  const token = { collectionId: numberOrUndefined(d.collectionId), tokenId: numberOrUndefined(d.tokenId) };
  const amount = text(d.amount);
  const name = `${event.section}.${event.method}`;
  const out: AccountItem[] = [];
  switch (name) {
    case 'balances.Transfer':
    case 'common.Transfer': {
      const native = name === 'balances.Transfer';
      const where = native ? {} : token;
      // A transfer to oneself is both: said once, as sent.
      if (d.from === account) out.push({ kind: 'sent', ...where, counterparty: d.to as Address, amount });
      else if (d.to === account) out.push({ kind: 'received', ...where, counterparty: d.from as Address, amount });
      break;
    }
    case 'common.ItemCreated':
      if (d.owner === account) out.push({ kind: 'minted', ...token, counterparty: null, amount });
      break;
    case 'common.ItemDestroyed':
      if (d.owner === account) out.push({ kind: 'burned', ...token, counterparty: null, amount });
      break;
    case 'common.Approved':
      if (d.owner === account) out.push({ kind: 'approved', ...token, counterparty: d.spender as Address, amount });
      else if (d.spender === account) out.push({ kind: 'approved', ...token, counterparty: d.owner as Address, amount });
      break;
    case 'common.ApprovedForAll':
      if (d.owner === account || d.operator === account)
        out.push({ kind: 'approved-for-all', collectionId: token.collectionId, counterparty: (d.owner === account ? d.operator : d.owner) as Address, amount: d.approve ? '1' : '0' });
      break;
    case 'balances.Withdraw':
      if (d.who === account) out.push({ kind: 'fee', counterparty: null, amount });
      break;
  }
  return out;
}

interface Group {
  block: number;
  extrinsic: number | null;
  changes: HistoryRecord[];
}

/** The account's changes before `before` grouped by the extrinsic that made them, at most `limit` groups, and where the next page starts. */
async function accountGroups(tx: QueryTx, account: Address, before: Place | undefined, limit: number): Promise<{ groups: Group[]; next: Place | null }> {
  const groups: Group[] = [];
  let cursor = before;
  for (let read = 0; read < MAX_CHANGES_PER_PAGE; ) {
    const chunk = await tx.history.changesOfAccount(account, cursor, CHANGES_PER_READ);
    read += chunk.length;
    for (const change of chunk) {
      const last = groups[groups.length - 1];
      if (last && last.block === change.block && last.extrinsic === change.extrinsic) {
        last.changes.push(change);
        continue;
      }
      // A full page: the next starts just above this change (`before` is exclusive).
      if (groups.length === limit) return { groups, next: { block: change.block, seq: change.seq + 1 } };
      groups.push({ block: change.block, extrinsic: change.extrinsic, changes: [change] });
    }
    if (chunk.length < CHANGES_PER_READ) return { groups, next: null };
    const last = chunk[chunk.length - 1];
    cursor = { block: last.block, seq: last.seq };
  }
  return { groups, next: cursor ?? null };
}

/**
 * The account's history before `before`, newest first: one entry per extrinsic (or block) that
 * changed a row naming it, with what its events did to the account and its native balance then,
 * and the units of the collections named. Pages of the account-history index (HistoryTx.changesOfAccount).
 */
export async function accountHistory(
  tx: QueryTx,
  account: Address,
  before: Place | undefined,
  limit: number
): Promise<{ entries: AccountEntry[]; collections: Record<number, CollectionUnit>; next: Place | null }> {
  const { groups, next } = await accountGroups(tx, account, before, Math.min(limit, MAX_PAGE));
  const blocks = new Map<number, BlockRecord | undefined>();
  const entries: AccountEntry[] = [];
  const collectionIds = new Set<number>();
  for (const group of groups) {
    if (!blocks.has(group.block)) blocks.set(group.block, await tx.get('blocks', group.block));
    const block = blocks.get(group.block);
    const hash = group.extrinsic === null ? undefined : block?.extrinsics[group.extrinsic];
    const record = hash ? await tx.get('extrinsics', hash) : undefined;
    // A mint or burn another account signed names it ("minted by Alice"): the event names only the holder.
    const by = record && record.signer !== account ? record.signer : null;
    const all = (record?.events ?? []).flatMap((event) => itemsOf(event, account)).map((item) => ((item.kind === 'minted' || item.kind === 'burned') && item.counterparty === null ? { ...item, counterparty: by } : item));
    const items = all.slice(0, MAX_ITEMS_PER_ENTRY);
    for (const item of items) if (item.collectionId !== undefined) collectionIds.add(item.collectionId);
    // Newest first: the oldest change of its balance holds the balance before the extrinsic.
    const balanceChanges = group.changes.filter((c) => c.table === 'accounts') as HistoryRecord<'accounts'>[];
    const free = (row: AccountRecord | undefined) => (row?.free ?? 0n).toString();
    const balance = balanceChanges.length ? { before: free(balanceChanges[balanceChanges.length - 1].before), after: free(balanceChanges[0].after) } : null;
    entries.push({
      blockNumber: group.block,
      blockHash: block?.hash ?? '',
      timestamp: block?.timestamp ?? 0,
      extrinsic: record ? { hash: record.hash, section: record.callMethod.section, method: record.callMethod.method, signer: record.signer } : null,
      items,
      more: all.length - items.length,
      balance: balance && balance.before !== balance.after ? balance : null
    });
  }
  const collections: Record<number, CollectionUnit> = {};
  for (const id of collectionIds) {
    const c = await tx.get('collections', id);
    if (c) collections[id] = { mode: c.mode, name: c.name, tokenPrefix: c.tokenPrefix, decimals: c.decimals };
  }
  return { entries, collections, next };
}
