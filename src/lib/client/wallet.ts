// A wallet's reads (Opalite extensions): what an account holds across collections
// (/tokens/holdings) and its history (/explorer/account-history), checked before use, and the words
// and display units a wallet shows them in.
import type { RestClient } from './client';
import { unitsText } from './format';
import { OpaliteOnlyError, opaliteRead } from './explorer';
import type { CollectionMode, Token } from './types';
import { wireReader } from './wire';

export type HoldingKind = 'nft' | 'pieces' | 'fungible';

/** A collection as the wallet shows an amount of it. */
export interface CollectionUnit {
  mode: CollectionMode;
  name: string;
  tokenPrefix: string;
  decimals: number;
}

export interface Holding {
  collectionId: number;
  tokenId: number;
  collection: CollectionUnit;
  /** Smallest unit (fungible), pieces (refungible), 1 (NFT). */
  amount: string;
  total: string;
  token: Token | null;
}

export interface HoldingsPage {
  holdings: Holding[];
  next: string | null;
}

export type AccountItemKind = 'received' | 'sent' | 'minted' | 'burned' | 'approved' | 'approved-for-all' | 'fee';

export interface AccountItem {
  kind: AccountItemKind;
  collectionId?: number;
  tokenId?: number;
  counterparty: string | null;
  amount: string;
}

export interface AccountEntry {
  blockNumber: number;
  blockHash: string;
  timestamp: number;
  extrinsic: { hash: string; section: string; method: string; signer: string } | null;
  items: AccountItem[];
  more: number;
  balance: { before: string; after: string } | null;
}

export interface AccountHistoryPage {
  entries: AccountEntry[];
  collections: Record<number, CollectionUnit>;
  next: string | null;
}

/** The chain's own unit (OPL, 18 decimals). */
export interface NativeUnit {
  unit: string;
  decimals: number;
}

const MODES: readonly string[] = ['NFT', 'Fungible', 'ReFungible'];
const KINDS: readonly string[] = ['received', 'sent', 'minted', 'burned', 'approved', 'approved-for-all', 'fee'];

function unitFrom(r: ReturnType<typeof wireReader>, value: unknown, field: string): CollectionUnit {
  const c = r.record(value, field);
  const mode = r.text(c.mode, `${field}.mode`);
  if (!MODES.includes(mode)) r.fail(`${field}.mode`, 'NFT, Fungible or ReFungible');
  const decimals = r.count(c.decimals, `${field}.decimals`);
  if (decimals > 30) r.fail(`${field}.decimals`, 'at most 30');
  return { mode: mode as CollectionMode, name: r.text(c.name, `${field}.name`), tokenPrefix: r.text(c.tokenPrefix, `${field}.tokenPrefix`), decimals };
}

/** `GET /tokens/holdings` */
export function parseHoldings(json: unknown): HoldingsPage {
  const r = wireReader('/tokens/holdings');
  const answer = r.record(json, 'the answer');
  const holdings = r.list(answer.holdings, 'holdings').map((value, i): Holding => {
    const field = `holdings[${i}]`;
    const h = r.record(value, field);
    return {
      collectionId: r.count(h.collectionId, `${field}.collectionId`),
      tokenId: r.count(h.tokenId, `${field}.tokenId`),
      collection: unitFrom(r, h.collection, `${field}.collection`),
      amount: r.amount(h.amount, `${field}.amount`),
      total: r.amount(h.total, `${field}.total`),
      token: h.token === null ? null : (r.record(h.token, `${field}.token`) as unknown as Token)
    };
  });
  const next = answer.next === null ? null : r.text(answer.next, 'next');
  return { holdings, next };
}

/** `GET /explorer/account-history` */
export function parseAccountHistory(json: unknown): AccountHistoryPage {
  const r = wireReader('/explorer/account-history');
  const answer = r.record(json, 'the answer');
  const entries = r.list(answer.entries, 'entries').map((value, i): AccountEntry => {
    const field = `entries[${i}]`;
    const e = r.record(value, field);
    let extrinsic: AccountEntry['extrinsic'] = null;
    if (e.extrinsic !== null) {
      const x = r.record(e.extrinsic, `${field}.extrinsic`);
      extrinsic = { hash: r.hash(x.hash, `${field}.extrinsic.hash`), section: r.text(x.section, `${field}.extrinsic.section`), method: r.text(x.method, `${field}.extrinsic.method`), signer: r.text(x.signer, `${field}.extrinsic.signer`) };
    }
    const items = r.list(e.items, `${field}.items`).map((v, j): AccountItem => {
      const f = `${field}.items[${j}]`;
      const item = r.record(v, f);
      const kind = r.text(item.kind, `${f}.kind`);
      if (!KINDS.includes(kind)) r.fail(`${f}.kind`, KINDS.join(', '));
      return {
        kind: kind as AccountItemKind,
        ...(item.collectionId === undefined ? {} : { collectionId: r.count(item.collectionId, `${f}.collectionId`) }),
        ...(item.tokenId === undefined ? {} : { tokenId: r.count(item.tokenId, `${f}.tokenId`) }),
        counterparty: item.counterparty === null ? null : r.text(item.counterparty, `${f}.counterparty`),
        amount: r.amount(item.amount, `${f}.amount`)
      };
    });
    const b = e.balance === null ? null : r.record(e.balance, `${field}.balance`);
    return {
      blockNumber: r.count(e.blockNumber, `${field}.blockNumber`),
      blockHash: r.text(e.blockHash, `${field}.blockHash`),
      timestamp: r.count(e.timestamp, `${field}.timestamp`),
      extrinsic,
      items,
      more: r.count(e.more, `${field}.more`),
      balance: b ? { before: r.amount(b.before, `${field}.balance.before`), after: r.amount(b.after, `${field}.balance.after`) } : null
    };
  });
  const collections: Record<number, CollectionUnit> = {};
  for (const [id, value] of Object.entries(r.record(answer.collections, 'collections'))) collections[Number(id)] = unitFrom(r, value, `collections.${id}`);
  const next = answer.next === null ? null : r.text(answer.next, 'next');
  if (next !== null && !/^\d{1,10}:\d{1,7}$/.test(next)) r.fail('next', '<block>:<seq>');
  return { entries, collections, next };
}

/** A page of what `address` holds of one kind; `after` is the previous page's `next`. */
export async function holdings(client: RestClient, address: string, kind: HoldingKind, options: { after?: string; limit?: number } = {}): Promise<HoldingsPage> {
  const answer = await opaliteRead(
    client,
    () => client.get('/tokens/holdings', { address, kind, after: options.after, limit: options.limit ?? 24 }),
    () => new OpaliteOnlyError(client.baseUrl, 'GET /tokens/holdings', 'a view of tokens across collections')
  );
  return parseHoldings(answer);
}

/** A page of the account's history, newest first; `before` is the previous page's `next`. */
export async function accountHistory(client: RestClient, address: string, options: { before?: string; limit?: number } = {}): Promise<AccountHistoryPage> {
  const answer = await opaliteRead(
    client,
    () => client.get('/explorer/account-history', { address, before: options.before, limit: options.limit ?? 20 }),
    () => new OpaliteOnlyError(client.baseUrl, 'GET /explorer/account-history', "an account's history")
  );
  return parseAccountHistory(answer);
}

/** An amount of one holding in display units: `12.5 COIN`, `30 of 100 pieces`, or the NFT's `1`. */
export function holdingAmountText(holding: Holding): string {
  const { collection } = holding;
  if (collection.mode === 'Fungible') return unitsText(holding.amount, collection.decimals, collection.tokenPrefix);
  if (collection.mode === 'ReFungible') return `${holding.amount} of ${holding.total} pieces`;
  return '1';
}

/** What an item moved, in display units: the native unit, a fungible collection's decimals and prefix, pieces of a token, or the token. */
export function itemAmountText(item: AccountItem, collections: Record<number, CollectionUnit>, native: NativeUnit): string {
  if (item.collectionId === undefined) return unitsText(item.amount, native.decimals, native.unit);
  const collection = collections[item.collectionId];
  const token = `${collection?.tokenPrefix || `collection ${item.collectionId}`} #${item.tokenId ?? 0}`;
  if (item.kind === 'approved-for-all') return `every token of ${collection?.name || `collection ${item.collectionId}`}${item.amount === '0' ? ' (revoked)' : ''}`;
  if (collection?.mode === 'Fungible') return unitsText(item.amount, collection.decimals, collection.tokenPrefix);
  if (collection?.mode === 'ReFungible') return `${item.amount} ${item.amount === '1' ? 'piece' : 'pieces'} of ${token}`;
  if (item.kind === 'approved' && item.amount === '0') return `${token} (revoked)`;
  return token;
}

/** The words of an item's kind, and the preposition before its counterparty. */
export const ITEM_WORDS: Record<AccountItemKind, { verb: string; party: string }> = {
  received: { verb: 'Received', party: 'from' },
  sent: { verb: 'Sent', party: 'to' },
  minted: { verb: 'Minted', party: 'by' },
  burned: { verb: 'Burned', party: 'by' },
  approved: { verb: 'Approved', party: 'with' },
  'approved-for-all': { verb: 'Approved', party: 'with' },
  fee: { verb: 'Fee', party: '' }
};
