// What the explorer says in words: an extrinsic's status and who paid its fee, an account's
// balance changes, and any change list (an extrinsic's, or a token's between two blocks) through
// the sign dialog's own wording (sign/words.ts), so one change reads the same everywhere. Pure.
import { sameAddress } from './address';
import { unitsText } from './format';
import { describeChanges, type ChangeGroup, type CollectionFacts, type WordsContext } from './sign/words';
import type { BalanceHistoryEntry, Change, ChainEvent, ExtrinsicStatus, Token } from './types';

export type { ChangeGroup, CollectionFacts } from './sign/words';

/** The chain's own token, for amounts in display units. */
export interface NativeUnit {
  unit: string;
  decimals: number;
}

export interface ExplorerWordsContext {
  native: NativeUnit;
  /** The name the app knows `address` by, or null. */
  nameOf(address: string): string | null;
  collection(id: number): CollectionFacts | null;
}

/**
 * A change list in words, grouped per account, collection and token. The explorer speaks of
 * every account by its name (nobody is "you": the reader is not the signer), signer first.
 */
export function changeGroups(changes: readonly Change[], ctx: ExplorerWordsContext, signer: string | null = null): ChangeGroup[] {
  const words: WordsContext = { signer: '', native: ctx.native, nameOf: ctx.nameOf, collection: ctx.collection };
  const groups = describeChanges(changes, words);
  if (!signer) return groups;
  const first = groups.filter((g) => g.subject.kind === 'account' && sameAddress(g.subject.address, signer));
  return [...first, ...groups.filter((g) => !first.includes(g))];
}

/** Collection ids a change list names, at most `max` (each is read to name it). */
export function collectionIdsOf(changes: readonly Change[], max = 16): number[] {
  return [...new Set(changes.flatMap((c) => (typeof c.collectionId === 'number' ? [c.collectionId] : [])))].slice(0, max);
}

export type Tone = 'ok' | 'warn' | 'error';

/** Where an extrinsic stands, in one or two sentences. */
export function statusWords(status: ExtrinsicStatus): { tone: Tone; title: string; text: string } {
  const block = status.block?.header?.number;
  const error = status.error;
  const why = error ? `${error.message?.trim() || 'no reason given'}${error.details?.section ? ` (${error.details.section}.${error.details.name ?? ''})` : ''}` : '';
  if (error?.details?.name === 'Reverted') {
    return { tone: 'warn', title: 'Reverted', text: `${error.message.trim() || 'The ledger was reverted before the block that included it'}. It is in no block any more: nothing it did remains.` };
  }
  if (typeof block === 'number') {
    if (status.isError) return { tone: 'error', title: 'Failed', text: `Included in block ${block}, but the call failed: ${why}. The fee was charged and the nonce used; nothing else changed.` };
    return { tone: 'ok', title: 'Succeeded', text: `Included in block ${block}${typeof status.blockIndex === 'number' ? ` as its extrinsic ${status.blockIndex}` : ''}; the call succeeded.` };
  }
  if (status.isError || status.status === 'Invalid') return { tone: 'error', title: 'Refused', text: `Refused before any block: ${why || status.status}. Nothing changed and no fee was charged.` };
  return { tone: 'warn', title: 'Waiting', text: `Not in a block yet (status ${status.status}): it waits for the next block.` };
}

/** Who paid the fee, as the chain's fee event names them; null when the events do not say. */
export function feePayerOf(events: readonly ChainEvent[] | undefined): string | null {
  for (const event of events ?? []) {
    if (event.section === 'transactionPayment' && event.method === 'TransactionFeePaid') {
      const who = (event.data as { who?: unknown } | null | undefined)?.who;
      if (typeof who === 'string') return who;
    }
  }
  return null;
}

/** `+5 OPL` or `−0.1 OPL`: the change of a balance, in display units. */
export function deltaText(before: string, after: string, native: NativeUnit): string {
  const delta = BigInt(after) - BigInt(before);
  const abs = delta < 0n ? -delta : delta;
  return `${delta < 0n ? '−' : '+'}${unitsText(abs, native.decimals, native.unit)}`;
}

/** One line of an account's history: how much, and the balance after. */
export function balanceEntryWords(entry: BalanceHistoryEntry, native: NativeUnit): { delta: string; balance: string; incoming: boolean } {
  return {
    delta: deltaText(entry.before, entry.after, native),
    balance: unitsText(entry.after, native.decimals, native.unit),
    incoming: BigInt(entry.after) >= BigInt(entry.before)
  };
}

/** What changed on a token between two reads of it (null: it did not exist), as a change list. */
export function tokenChanges(collectionId: number, tokenId: number, then: Token | null, now: Token | null): Change[] {
  const ref = { collectionId, tokenId };
  const out: Change[] = [];
  if (!then || !now) {
    if (then || now) out.push({ kind: 'token', ...ref, before: then ? { owner: then.owner } : null, after: now ? { owner: now.owner } : null });
  } else if (!sameAddress(then.owner, now.owner)) {
    out.push({ kind: 'tokenOwner', ...ref, before: then.owner, after: now.owner });
  }
  const was = new Map((then?.properties ?? []).map((p) => [p.key, p.value]));
  const is = new Map((now?.properties ?? []).map((p) => [p.key, p.value]));
  for (const key of new Set([...was.keys(), ...is.keys()])) {
    const [before, after] = [was.get(key) ?? null, is.get(key) ?? null];
    if (before !== after) out.push({ kind: 'tokenProperty', ...ref, key, before, after });
  }
  return out;
}
