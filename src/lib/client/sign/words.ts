// What a signature will do, in a person's words: the call (decoded here from the bytes to be
// signed) and the changes a dry run reports, grouped per account, collection and token, with
// amounts in display units (native decimals from the chain; a fungible collection's own
// decimals; pieces as whole numbers). Pure: the names and collections are given.
import type { Call, CollectionMode } from '../../codec/call-types';
import { sameAddress } from '../address';
import { countText, idRanges, nestingTarget, shortAddress, unitsText } from '../format';
import { hasSeveralHolders } from '../pieces';
import type { AttributeSchema, Change, Collection } from '../types';
import { tokenPropertyWords } from './property-words';

/** What the words need to know of a collection. */
export interface CollectionFacts {
  name: string;
  mode: CollectionMode;
  decimals: number;
  tokenPrefix: string;
  /** Its Unique schema's attributes, by index: token properties are then said by their fields' names. */
  attributes?: Record<string, AttributeSchema>;
  /** Whether its tokens' properties follow the Unique schema v1 keys (n, d, i.u, i.c, a.N). */
  uniqueSchema?: boolean;
}

/** What the words need of a collection the service answered. */
export function collectionFacts(collection: Collection): CollectionFacts {
  const schema = collection.schema;
  return {
    name: collection.name,
    mode: collection.mode,
    decimals: collection.decimals ?? 0,
    tokenPrefix: collection.tokenPrefix,
    uniqueSchema: schema?.schemaName === 'unique',
    ...(schema?.attributesSchema ? { attributes: schema.attributesSchema } : {})
  };
}

export interface WordsContext {
  /** Who signs: "you" in the words. */
  signer: string;
  /** The chain's own token: its symbol and decimals. */
  native: { unit: string; decimals: number };
  /** The name the app knows `address` by (an account, a contact, a dev account), or null. */
  nameOf(address: string): string | null;
  /** A collection the call or its changes name, when it could be read. */
  collection(id: number): CollectionFacts | null;
}

export type GroupSubject =
  | { kind: 'account'; address: string }
  | { kind: 'collection'; collectionId: number }
  | { kind: 'token'; collectionId: number; tokenId: number }
  | { kind: 'other' };

/** The changes of one account, collection or token, in words. */
export interface ChangeGroup {
  key: string;
  subject: GroupSubject;
  title: string;
  lines: string[];
}

/** The call in words: one sentence, and one per call of a batch. */
export interface CallWords {
  summary: string;
  parts: string[];
}

/** Accounts every Substrate chain with a treasury has (pallet_treasury's `py/trsry`): fees and deposits go there. */
const WELL_KNOWN: Record<string, string> = { '5EYCAe5ijiYfyeZ2JJCGq56LmPyNRAKzpG4QkoQkkQNB5e6Z': 'the treasury' };

/** Longest piece of a property value or other text quoted in the words. */
const MAX_QUOTED = 80;

function quoted(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `“${text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text}”`;
}

/** `tokenLimit` → "token limit". */
function wordsOf(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function big(value: unknown): bigint {
  try {
    return BigInt(typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? value : 0);
  } catch {
    return 0n;
  }
}

function grouped(n: bigint): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

function signed(delta: bigint, text: (abs: bigint) => string): string {
  return `${delta < 0n ? '−' : '+'}${text(delta < 0n ? -delta : delta)}`;
}

/** Words for a context: every helper speaks of addresses, collections and amounts the same way. */
export function wordsFor(ctx: WordsContext) {
  const collectionName = (id: number) => {
    const facts = ctx.collection(id);
    return facts?.name ? `collection “${facts.name.slice(0, MAX_QUOTED)}” (#${id})` : `collection #${id}`;
  };
  const tokenName = (collectionId: number, tokenId: number) => `token #${tokenId} of ${collectionName(collectionId)}`;
  const who = (address: string | null | undefined): string => {
    if (!address) return 'nobody';
    if (hasSeveralHolders(address)) return 'several holders';
    if (sameAddress(address, ctx.signer)) return 'you';
    const nested = nestingTarget(address);
    if (nested) return tokenName(nested.collectionId, nested.tokenId);
    return ctx.nameOf(address) ?? Object.entries(WELL_KNOWN).find(([known]) => sameAddress(known, address))?.[1] ?? shortAddress(address);
  };
  /** A chain message with the addresses the app knows named ("Maya holds…"); others stay as written. */
  const namedText = (text: string) =>
    text.replace(/\b(?:[1-9A-HJ-NP-Za-km-z]{46,50}|0x[0-9a-fA-F]{40})\b/g, (address) => ctx.nameOf(address) ?? (sameAddress(address, ctx.signer) ? 'your account' : address));
  const native = (raw: bigint | string) => unitsText(raw, ctx.native.decimals, ctx.native.unit);
  /** An amount of a fungible collection, in its decimals and prefix. */
  const fungible = (collectionId: number, raw: bigint | string) => {
    const facts = ctx.collection(collectionId);
    return facts ? unitsText(raw, facts.decimals, facts.tokenPrefix || 'units') : `${grouped(big(raw))} smallest units`;
  };
  const pieces = (n: bigint | string) => {
    const value = big(n);
    return `${grouped(value)} ${value === 1n ? 'piece' : 'pieces'}`;
  };
  /** The Unique schema a collection's token properties follow, or null (then they are said by their keys). */
  const schemaOf = (collectionId: number) => {
    const facts = ctx.collection(collectionId);
    return facts?.uniqueSchema ? { attributes: facts.attributes } : null;
  };
  return { collectionName, tokenName, who, namedText, native, fungible, pieces, schemaOf };
}

type Words = ReturnType<typeof wordsFor>;

function modeWords(mode: CollectionMode): string {
  if (mode === 'Fungible') return 'fungible collection';
  if (mode === 'ReFungible') return 'refungible collection';
  return 'NFT collection';
}

/** "prefix GLD, 6 decimals": what follows a new collection's name (decimals only where a Fungible one has them). */
function creationFacts(mode: CollectionMode, decimals: number, tokenPrefix: string): string {
  return [tokenPrefix ? `prefix ${tokenPrefix}` : '', mode === 'Fungible' ? countText(decimals, 'decimal') : ''].filter(Boolean).join(', ');
}

/** Ids of tokens the changes mint in `collectionId`, in order. */
function mintedIds(changes: readonly Change[] | null, collectionId: number): number[] {
  return (changes ?? [])
    .filter((c) => c.kind === 'token' && c.collectionId === collectionId && c.before === null && c.after !== null && typeof c.tokenId === 'number')
    .map((c) => c.tokenId as number)
    .sort((a, b) => a - b);
}

/** `[1, 2, 3, 5]` → "#1–#3, #5". */
function idsText(ids: readonly number[]): string {
  return idRanges(ids)
    .split(', ')
    .map((part) => `#${part.replace('–', '–#')}`)
    .join(', ');
}

function tokensWords(ids: number[], fallback: string): string {
  if (ids.length === 0) return fallback;
  return ids.length === 1 ? `token #${ids[0]}` : `${ids.length} tokens (${idsText(ids)})`;
}

function keysWords(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).map((k) => `“${k.slice(0, 40)}”`);
  return keys.length > 5 ? `${shown.join(', ')} and ${keys.length - 5} more` : shown.join(', ');
}

function oneCall(call: Call, w: Words, ctx: WordsContext, changes: readonly Change[] | null): string {
  const mode = (id: number) => ctx.collection(id)?.mode;
  switch (call.name) {
    case 'balances.transferKeepAlive':
      return `Transfer ${w.native(call.args.value)} to ${w.who(call.args.dest)}`;
    case 'unique.createCollectionEx': {
      const d = call.args.data;
      const facts = creationFacts(d.mode, d.decimals, d.tokenPrefix);
      return `Create the ${modeWords(d.mode)} “${d.name.slice(0, MAX_QUOTED)}”${facts ? ` (${facts})` : ''}`;
    }
    case 'unique.destroyCollection':
      return `Destroy ${w.collectionName(call.args.collectionId)}`;
    case 'unique.createItem': {
      const { collectionId, owner } = call.args;
      if (call.args.kind === 'Fungible' || mode(collectionId) === 'Fungible') return `Mint ${w.fungible(collectionId, call.args.amount ?? 0n)} of ${w.collectionName(collectionId)} for ${w.who(owner)}`;
      const token = tokensWords(mintedIds(changes, collectionId), 'a token');
      const inPieces = call.args.kind === 'ReFungible' ? ` in ${w.pieces(call.args.amount ?? 0n)}` : '';
      return `Mint ${token}${inPieces} in ${w.collectionName(collectionId)} for ${w.who(owner)}`;
    }
    case 'unique.createMultipleItems': {
      const { collectionId, owner, items } = call.args;
      if (mode(collectionId) === 'Fungible' || items.some((i) => i.kind === 'Fungible')) {
        return `Mint ${w.fungible(collectionId, items.reduce((sum, i) => sum + (i.amount ?? 0n), 0n))} of ${w.collectionName(collectionId)} for ${w.who(owner)}`;
      }
      return `Mint ${tokensWords(mintedIds(changes, collectionId), countText(items.length, 'token'))} in ${w.collectionName(collectionId)} for ${w.who(owner)}`;
    }
    case 'unique.createMultipleItemsEx': {
      const { collectionId, items } = call.args;
      const owners = [...new Set(items.map((i) => w.who(i.owner)))];
      const forWhom = owners.length <= 3 ? owners.join(', ') : `${owners.length} accounts`;
      if (call.args.kind === 'Fungible' || mode(collectionId) === 'Fungible') {
        return `Mint ${w.fungible(collectionId, items.reduce((sum, i) => sum + (i.amount ?? 0n), 0n))} of ${w.collectionName(collectionId)} for ${forWhom}`;
      }
      if (call.args.kind === 'RefungibleMultipleOwners') {
        const pieces = w.pieces(items.reduce((sum, i) => sum + (i.amount ?? 0n), 0n));
        return `Mint ${tokensWords(mintedIds(changes, collectionId), 'a token')} in ${pieces} in ${w.collectionName(collectionId)} for ${forWhom}`;
      }
      return `Mint ${tokensWords(mintedIds(changes, collectionId), countText(items.length, 'token'))} in ${w.collectionName(collectionId)} for ${forWhom}`;
    }
    case 'unique.transfer':
    case 'unique.transferFrom': {
      const { collectionId, tokenId, value, to } = call.args;
      // transferFrom of the signer's own (how the app sends) reads as a plain transfer.
      const from = call.name === 'unique.transferFrom' && !sameAddress(call.args.from, ctx.signer) ? ` from ${w.who(call.args.from)}` : '';
      if (mode(collectionId) === 'Fungible') return `Send ${w.fungible(collectionId, value)} of ${w.collectionName(collectionId)}${from} to ${w.who(to)}`;
      if (mode(collectionId) === 'ReFungible') return `Send ${w.pieces(value)} of ${w.tokenName(collectionId, tokenId)}${from} to ${w.who(to)}`;
      return `Transfer ${w.tokenName(collectionId, tokenId)}${from} to ${w.who(to)}`;
    }
    case 'unique.approve': {
      const { collectionId, tokenId, amount, spender } = call.args;
      if (amount === 0n) return `Take back ${w.who(spender)}’s approval for ${mode(collectionId) === 'Fungible' ? w.collectionName(collectionId) : w.tokenName(collectionId, tokenId)}`;
      if (mode(collectionId) === 'Fungible') return `Allow ${w.who(spender)} to spend ${w.fungible(collectionId, amount)} of ${w.collectionName(collectionId)}`;
      if (mode(collectionId) === 'ReFungible') return `Allow ${w.who(spender)} to transfer ${w.pieces(amount)} of ${w.tokenName(collectionId, tokenId)}`;
      return `Allow ${w.who(spender)} to transfer ${w.tokenName(collectionId, tokenId)}`;
    }
    case 'unique.burnItem':
    case 'unique.burnFrom': {
      const { collectionId, tokenId, value } = call.args;
      const from = call.name === 'unique.burnFrom' && !sameAddress(call.args.from, ctx.signer) ? ` held by ${w.who(call.args.from)}` : '';
      if (mode(collectionId) === 'Fungible') return `Burn ${w.fungible(collectionId, value)} of ${w.collectionName(collectionId)}${from}`;
      if (mode(collectionId) === 'ReFungible') return `Burn ${w.pieces(value)} of ${w.tokenName(collectionId, tokenId)}${from}`;
      return `Burn ${w.tokenName(collectionId, tokenId)}${from}`;
    }
    case 'unique.setAllowanceForAll':
      return call.args.approve
        ? `Allow ${w.who(call.args.operator)} to transfer and burn all your tokens in ${w.collectionName(call.args.collectionId)}`
        : `Take back ${w.who(call.args.operator)}’s right to transfer and burn all your tokens in ${w.collectionName(call.args.collectionId)}`;
    case 'unique.repartition':
      return `Split ${w.tokenName(call.args.collectionId, call.args.tokenId)} into ${w.pieces(call.args.amount)}`;
    case 'unique.setTokenProperties':
      return `Set ${call.args.properties.length === 1 ? 'property' : 'properties'} ${keysWords(call.args.properties.map((p) => p.key))} of ${w.tokenName(call.args.collectionId, call.args.tokenId)}`;
    case 'unique.deleteTokenProperties':
      return `Remove ${call.args.propertyKeys.length === 1 ? 'property' : 'properties'} ${keysWords(call.args.propertyKeys)} of ${w.tokenName(call.args.collectionId, call.args.tokenId)}`;
    case 'unique.setCollectionProperties':
      return `Set ${call.args.properties.length === 1 ? 'property' : 'properties'} ${keysWords(call.args.properties.map((p) => p.key))} of ${w.collectionName(call.args.collectionId)}`;
    case 'unique.deleteCollectionProperties':
      return `Remove ${call.args.propertyKeys.length === 1 ? 'property' : 'properties'} ${keysWords(call.args.propertyKeys)} of ${w.collectionName(call.args.collectionId)}`;
    case 'unique.setTokenPropertyPermissions':
      return `Set who may write token ${call.args.propertyPermissions.length === 1 ? 'property' : 'properties'} ${keysWords(call.args.propertyPermissions.map((p) => p.key))} in ${w.collectionName(call.args.collectionId)}`;
    case 'unique.setCollectionLimits':
      return `Change the limits of ${w.collectionName(call.args.collectionId)}: ${Object.keys(call.args.limits).map(wordsOf).join(', ') || 'none'}`;
    case 'unique.setCollectionPermissions':
      return `Change the permissions of ${w.collectionName(call.args.collectionId)}: ${Object.keys(call.args.permissions).map(wordsOf).join(', ') || 'none'}`;
    case 'unique.setTransfersEnabledFlag':
      return `Turn token transfers ${call.args.value ? 'on' : 'off'} in ${w.collectionName(call.args.collectionId)}`;
    case 'unique.changeCollectionOwner':
      return `Give ${w.collectionName(call.args.collectionId)} to ${w.who(call.args.newOwner)}`;
    case 'unique.addCollectionAdmin':
      return `Make ${w.who(call.args.newAdmin)} an admin of ${w.collectionName(call.args.collectionId)}`;
    case 'unique.removeCollectionAdmin':
      return `Remove ${w.who(call.args.account)} as an admin of ${w.collectionName(call.args.collectionId)}`;
    case 'unique.setCollectionSponsor':
      return `Propose ${w.who(call.args.newSponsor)} as the sponsor of ${w.collectionName(call.args.collectionId)}`;
    case 'unique.confirmSponsorship':
      return `Confirm that you sponsor ${w.collectionName(call.args.collectionId)} (you pay its sponsored fees)`;
    case 'unique.removeCollectionSponsor':
      return `Remove the sponsor of ${w.collectionName(call.args.collectionId)}`;
    case 'unique.addToAllowList':
      return `Add ${w.who(call.args.address)} to the allow list of ${w.collectionName(call.args.collectionId)}`;
    case 'unique.removeFromAllowList':
      return `Remove ${w.who(call.args.address)} from the allow list of ${w.collectionName(call.args.collectionId)}`;
    case 'utility.batch':
    case 'utility.batchAll':
      return `${countText(call.args.calls.length, 'call')} in one batch${call.name === 'utility.batchAll' ? ' (all or nothing)' : ' (stops at the first that fails)'}`;
  }
}

/**
 * The call in words ("Transfer 5 OPL to Bob"); `changes` (a dry run's) name the tokens a mint
 * makes. A batch's calls are said one by one, without token ids (the changes are the batch's).
 */
export function describeCall(call: Call, ctx: WordsContext, changes: readonly Change[] | null = null): CallWords {
  ctx = withCreatedCollections(ctx, changes ?? []);
  const w = wordsFor(ctx);
  const summary = oneCall(call, w, ctx, changes);
  const parts = call.name === 'utility.batch' || call.name === 'utility.batchAll' ? call.args.calls.map((inner) => oneCall(inner, w, ctx, null)) : [];
  return { summary, parts };
}

function permissionWords(value: unknown): string {
  if (!value || typeof value !== 'object') return 'no permission (nobody may set it)';
  const p = value as { mutable?: boolean; collectionAdmin?: boolean; tokenOwner?: boolean };
  const writers = [p.collectionAdmin ? 'the collection’s admins' : '', p.tokenOwner ? 'the token’s owner' : ''].filter(Boolean);
  return `${writers.length ? `set by ${writers.join(' and ')}` : 'set by nobody'}, ${p.mutable ? 'changeable later' : 'fixed once set'}`;
}

function nestingWords(value: unknown): string {
  if (!value || typeof value !== 'object') return 'nobody may nest';
  const n = value as { tokenOwner?: boolean; collectionAdmin?: boolean; restricted?: number[] | null };
  const who = [n.tokenOwner ? 'token owners' : '', n.collectionAdmin ? 'the owner and admins' : ''].filter(Boolean);
  if (who.length === 0) return 'nobody may nest';
  return `${who.join(' and ')} may nest${n.restricted ? ` (only tokens of ${n.restricted.length ? `collections ${n.restricted.map((id) => `#${id}`).join(', ')}` : 'no collection'})` : ''}`;
}

function flagWords(value: unknown): string {
  if (value === null || value === undefined) return 'not set';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

function propertyLine(label: string, key: string, before: unknown, after: unknown): string {
  const name = `${label} “${key.slice(0, 64)}”`;
  if (before === null) return `${name} set to ${quoted(after)}`;
  if (after === null) return `${name} removed (it was ${quoted(before)})`;
  return `${name}: ${quoted(before)} → ${quoted(after)}`;
}

/** A token property as its schema names it ("color: red → blue"), else as propertyLine says any property. */
function tokenPropertyLine(key: string, before: unknown, after: unknown, schema: { attributes?: Record<string, AttributeSchema> } | null): string {
  const said = (value: unknown) => {
    if (!schema || typeof value !== 'string') return null;
    try {
      return tokenPropertyWords(key, value, schema.attributes);
    } catch {
      return null; // a schema of a shape never seen: the property as stored
    }
  };
  const [was, now] = [said(before), said(after)];
  const field = (was ?? now)?.field;
  if (!field || (before !== null && !was) || (after !== null && !now)) return propertyLine('Property', key, before, after);
  if (!was) return `${field}: ${quoted(now!.value)}`;
  if (!now) return `${field} removed (it was ${quoted(was.value)})`;
  return `${field}: ${quoted(was.value)} → ${quoted(now.value)}`;
}

function sponsorWords(value: unknown, w: Words): string {
  if (!value || typeof value !== 'object' || typeof (value as { address?: unknown }).address !== 'string') return 'none';
  const s = value as { address: string; isConfirmed?: boolean };
  return `${w.who(s.address)} (${s.isConfirmed ? 'confirmed' : 'not confirmed yet'})`;
}

class Groups {
  readonly #groups = new Map<string, ChangeGroup>();
  constructor(private readonly w: Words) {}

  account(address: string): string[] {
    return this.#get(`a:${address}`, { kind: 'account', address }, this.w.who(address)).lines;
  }
  collection(collectionId: number): string[] {
    return this.#get(`c:${collectionId}`, { kind: 'collection', collectionId }, this.w.collectionName(collectionId)).lines;
  }
  token(collectionId: number, tokenId: number): string[] {
    return this.#get(`t:${collectionId}:${tokenId}`, { kind: 'token', collectionId, tokenId }, this.w.tokenName(collectionId, tokenId)).lines;
  }
  other(): string[] {
    return this.#get('o', { kind: 'other' }, 'Other state').lines;
  }

  #get(key: string, subject: GroupSubject, title: string): ChangeGroup {
    let group = this.#groups.get(key);
    if (!group) {
      group = { key, subject, title: title.charAt(0).toUpperCase() + title.slice(1), lines: [] };
      this.#groups.set(key, group);
    }
    return group;
  }

  /** Accounts first (the signer's first), then collections, tokens and the rest, each in order of appearance. */
  list(signer: string): ChangeGroup[] {
    const rank = (g: ChangeGroup) =>
      g.subject.kind === 'account' ? (sameAddress(g.subject.address, signer) ? 0 : 1) : g.subject.kind === 'collection' ? 2 : g.subject.kind === 'token' ? 3 : 4;
    return [...this.#groups.values()].filter((g) => g.lines.length > 0).sort((a, b) => rank(a) - rank(b));
  }
}

/** The context, knowing too the collections the changes create (they cannot be read yet). */
export function withCreatedCollections(ctx: WordsContext, changes: readonly Change[]): WordsContext {
  const created = new Map<number, CollectionFacts>();
  for (const change of changes) {
    const made = change.kind === 'collection' && change.before === null ? (change.after as Partial<CollectionFacts> | null) : null;
    if (made && typeof change.collectionId === 'number') {
      created.set(change.collectionId, { name: String(made.name ?? ''), mode: made.mode ?? 'NFT', decimals: Number(made.decimals ?? 0), tokenPrefix: String(made.tokenPrefix ?? '') });
    }
  }
  return created.size === 0 ? ctx : { ...ctx, collection: (id) => ctx.collection(id) ?? created.get(id) ?? null };
}

/** Tokens minted or burned per account and collection, said once ("Gets 3 new tokens (#1–#3) of …"). */
function tokenArrivals(changes: readonly Change[], groups: Groups, w: Words): void {
  const runs = new Map<string, { address: string; collectionId: number; ids: number[]; minted: boolean }>();
  for (const c of changes) {
    if (c.kind !== 'token' || typeof c.collectionId !== 'number' || typeof c.tokenId !== 'number') continue;
    const minted = c.before === null;
    const owner = ((minted ? c.after : c.before) as { owner?: string } | null)?.owner;
    if (!owner) continue;
    const key = `${minted}:${owner}:${c.collectionId}`;
    const run = runs.get(key) ?? { address: owner, collectionId: c.collectionId, ids: [], minted };
    run.ids.push(c.tokenId);
    runs.set(key, run);
  }
  for (const run of runs.values()) {
    const ids = [...run.ids].sort((a, b) => a - b);
    const tokens = tokensWords(ids, '');
    const newTokens = ids.length === 1 ? `a new ${tokens}` : tokens.replace(' tokens', ' new tokens');
    groups.account(run.address).push(run.minted ? `Gets ${newTokens} of ${w.collectionName(run.collectionId)}` : `Loses ${tokens} of ${w.collectionName(run.collectionId)}: burned`);
  }
}

/** Changes of a collection's own settings (not of its tokens or holders). */
const COLLECTION_SETTINGS: ReadonlySet<Change['kind']> = new Set([
  'collectionOwner',
  'collectionProperty',
  'propertyPermission',
  'admin',
  'limit',
  'permission',
  'sponsorship',
  'collectionField',
  'allowList',
  'fungibleSupply'
]);

/** The dry run's changes in words, grouped per account, collection and token. Nonces are left out (bookkeeping). */
export function describeChanges(changes: readonly Change[], ctx: WordsContext): ChangeGroup[] {
  const w = wordsFor(withCreatedCollections(ctx, changes));
  const groups = new Groups(w);
  tokenArrivals(changes, groups, w);
  // A destroyed collection's settings all go with it: "Destroyed" says it once.
  const destroyed = new Set(changes.filter((c) => c.kind === 'collection' && c.after === null).map((c) => c.collectionId));
  const piecesMoved = new Set(changes.filter((c) => c.kind === 'pieces').map((c) => `${c.collectionId}:${c.tokenId}`));
  for (const c of changes) {
    const cid = c.collectionId ?? 0;
    const tid = c.tokenId ?? 0;
    if (destroyed.has(c.collectionId) && COLLECTION_SETTINGS.has(c.kind)) continue;
    switch (c.kind) {
      case 'nonce':
      case 'token':
        break;
      case 'balance': {
        const delta = big(c.after) - big(c.before);
        groups.account(c.address ?? '').push(`${signed(delta, w.native)} (balance ${w.native(big(c.before))} → ${w.native(big(c.after))})`);
        break;
      }
      case 'fungibleBalance': {
        const delta = big(c.after) - big(c.before);
        groups.account(c.address ?? '').push(`${signed(delta, (abs) => w.fungible(cid, abs))} of ${w.collectionName(cid)} (balance ${w.fungible(cid, big(c.before))} → ${w.fungible(cid, big(c.after))})`);
        break;
      }
      case 'pieces': {
        const delta = big(c.after) - big(c.before);
        groups.account(c.address ?? '').push(`${signed(delta, w.pieces)} of ${w.tokenName(cid, tid)} (holds ${w.pieces(big(c.before))} → ${w.pieces(big(c.after))})`);
        break;
      }
      case 'fungibleAllowance':
        groups
          .account(c.address ?? '')
          .push(big(c.after) === 0n ? `${w.who(c.key)} may no longer spend ${w.collectionName(cid)} from this account` : `${w.who(c.key)} may spend ${w.fungible(cid, big(c.after))} of ${w.collectionName(cid)} (was ${w.fungible(cid, big(c.before))})`);
        break;
      case 'piecesAllowance':
        groups
          .account(c.address ?? '')
          .push(big(c.after) === 0n ? `${w.who(c.key)} may no longer transfer pieces of ${w.tokenName(cid, tid)}` : `${w.who(c.key)} may transfer ${w.pieces(big(c.after))} of ${w.tokenName(cid, tid)} (was ${w.pieces(big(c.before))})`);
        break;
      case 'tokenOwner': {
        const [from, to] = [String(c.before ?? ''), String(c.after ?? '')];
        if (hasSeveralHolders(from) || hasSeveralHolders(to)) {
          // A refungible token split or made whole: its pieces lines say who gives and gets what.
          if (!piecesMoved.has(`${cid}:${tid}`)) groups.token(cid, tid).push(hasSeveralHolders(to) ? 'Now held by several holders' : `Now held whole by ${w.who(to)}`);
          break;
        }
        groups.account(from).push(`Sends ${w.tokenName(cid, tid)} to ${w.who(to)}`);
        groups.account(to).push(`Receives ${w.tokenName(cid, tid)} from ${w.who(from)}`);
        break;
      }
      case 'collection': {
        const was = c.before as { name?: string } | null;
        const now = c.after as { name?: string; mode?: CollectionMode; decimals?: number; tokenPrefix?: string; owner?: string } | null;
        if (now && !was) {
          const facts = creationFacts(now.mode ?? 'NFT', now.decimals ?? 0, now.tokenPrefix ?? '');
          groups.collection(cid).push(`Created: ${modeWords(now.mode ?? 'NFT')} “${String(now.name ?? '').slice(0, MAX_QUOTED)}”${facts ? `, ${facts}` : ''}, owned by ${w.who(now.owner)}`);
        } else if (was && !now) {
          groups.collection(cid).push(`Destroyed (it was “${String(was.name ?? '').slice(0, MAX_QUOTED)}”)`);
        }
        break;
      }
      case 'collectionOwner':
        groups.collection(cid).push(`Owner: ${w.who(String(c.before))} → ${w.who(String(c.after))}`);
        break;
      case 'collectionProperty':
        groups.collection(cid).push(propertyLine('Property', c.key ?? '', c.before, c.after));
        break;
      case 'tokenProperty':
        groups.token(cid, tid).push(tokenPropertyLine(c.key ?? '', c.before, c.after, w.schemaOf(cid)));
        break;
      case 'propertyPermission':
        groups.collection(cid).push(c.after === null ? `Token property “${(c.key ?? '').slice(0, 64)}”: permission removed` : `Token property “${(c.key ?? '').slice(0, 64)}”: ${permissionWords(c.after)}`);
        break;
      case 'admin':
        groups.collection(cid).push(c.after ? `${w.who(c.address)} becomes an admin` : `${w.who(c.address)} is no longer an admin`);
        break;
      case 'allowList':
        groups.collection(cid).push(c.after ? `${w.who(c.address)} is added to the allow list` : `${w.who(c.address)} is removed from the allow list`);
        break;
      case 'limit':
        groups.collection(cid).push(`Limit “${wordsOf(c.key ?? '')}”: ${flagWords(c.before)} → ${flagWords(c.after)}`);
        break;
      case 'permission':
        if (c.key === 'nesting') groups.collection(cid).push(`Nesting: ${nestingWords(c.before)} → ${nestingWords(c.after)}`);
        else if (c.key === 'mintMode') groups.collection(cid).push(`Mint mode (others may mint): ${flagWords(c.before)} → ${flagWords(c.after)}`);
        else groups.collection(cid).push(`Permission “${wordsOf(c.key ?? '')}”: ${flagWords(c.before)} → ${flagWords(c.after)}`);
        break;
      case 'sponsorship':
        groups.collection(cid).push(`Sponsor: ${sponsorWords(c.before, w)} → ${sponsorWords(c.after, w)}`);
        break;
      case 'collectionField':
        groups.collection(cid).push(`${wordsOf(c.key ?? '').replace(/^./, (ch) => ch.toUpperCase())}: ${quoted(c.before)} → ${quoted(c.after)}`);
        break;
      case 'fungibleSupply':
        groups.collection(cid).push(`Total supply: ${w.fungible(cid, big(c.before))} → ${w.fungible(cid, big(c.after))}`);
        break;
      case 'approval':
        groups.token(cid, tid).push(c.after === null ? `${w.who(String(c.before))} may no longer transfer it` : `${w.who(String(c.after))} may transfer it`);
        break;
      case 'totalPieces':
        groups.token(cid, tid).push(c.after === null ? 'Gone: no pieces left' : c.before === null ? `Made of ${w.pieces(big(c.after))}` : `Total pieces: ${grouped(big(c.before))} → ${grouped(big(c.after))}`);
        break;
      default:
        groups.other().push(`${(c.key ?? c.kind).slice(0, 64)}: ${quoted(c.before)} → ${quoted(c.after)}`);
    }
  }
  return groups.list(ctx.signer);
}
