// The sign dialog's preview: the call in words and, from the service's dry run against its
// current ledger, what it will change, the fee and who pays it, and whether the chain would refuse
// it. A service without a dry run (a real Unique REST service) gets the call, its fee and a check
// that the signer can pay, and the plain statement that its effects cannot be previewed there.
import type { Call } from '../../codec/call-types';
import { sameAddress } from '../address';
import type { RestClient } from '../client';
import { errorText } from '../errors';
import { rawOf } from '../fungible';
import type { BuildResult, ChainProperties, Change, DecodedCall, DryRun } from '../types';
import { collectionFacts, describeCall, describeChanges, wordsFor, type ChangeGroup, type CollectionFacts, type WordsContext } from './words';

/** How long the dry run and the reads around it may take before the dialog gives up previewing. */
export const PREVIEW_TIMEOUT_MS = 15_000;
/** Most collections read to name them (a batch may name many; the rest are called by id). */
export const MAX_NAMED_COLLECTIONS = 16;

export interface SignPreview {
  /** The call in words. */
  summary: string;
  /** Each call of a batch in words. */
  parts: string[];
  /** A dry run ran: `groups` are its changes. */
  previewed: boolean;
  groups: ChangeGroup[];
  /** The fee in display units, when known. */
  fee: string | null;
  /** Who pays the fee: the signer, or the collection's sponsor. */
  feePayer: { address: string; name: string; sponsored: boolean } | null;
  /** Why this must not be signed (the chain would refuse it, the signer cannot pay); null when it may be. */
  refusal: string | null;
  /** What the preview could not take into account, said plainly. */
  notes: string[];
}

export interface PreviewInput {
  client: RestClient;
  /** The call decoded from the bytes to be signed. */
  call: Call;
  built: BuildResult;
  decoded: DecodedCall;
  signer: string;
  chain: ChainProperties;
  nameOf(address: string): string | null;
}

/** Collection ids a call names, batches included. */
function callCollections(call: Call, into: Set<number>): void {
  if (call.name === 'utility.batch' || call.name === 'utility.batchAll') {
    for (const inner of call.args.calls) callCollections(inner, into);
    return;
  }
  const id = (call.args as { collectionId?: unknown }).collectionId;
  if (typeof id === 'number') into.add(id);
}

/** The collections the call and its changes name, as the service has them (one this call creates is named by its change). */
async function readCollections(client: RestClient, call: Call, changes: readonly Change[]): Promise<Map<number, CollectionFacts>> {
  const ids = new Set<number>();
  callCollections(call, ids);
  for (const change of changes) if (typeof change.collectionId === 'number') ids.add(change.collectionId);
  const facts = new Map<number, CollectionFacts>();
  const wanted = [...ids].slice(0, MAX_NAMED_COLLECTIONS);
  const read = await Promise.all(wanted.map((id) => client.collection(id).catch(() => null)));
  wanted.forEach((id, i) => {
    const found = read[i];
    if (found && typeof found === 'object' && typeof found.name === 'string') facts.set(id, collectionFacts(found));
  });
  return facts;
}

/** The native amount a call moves out of the signer's account besides the fee. */
function nativeSpent(call: Call): bigint {
  if (call.name === 'balances.transferKeepAlive') return call.args.value;
  if (call.name === 'utility.batch' || call.name === 'utility.batchAll') return call.args.calls.reduce((sum, inner) => sum + nativeSpent(inner), 0n);
  return 0n;
}

function chainRefusal(error: DryRun['error'], named: (text: string) => string): string {
  const where = [error?.details?.section, error?.details?.name].filter(Boolean).join('.');
  return `The chain would refuse this call: ${named(error?.message?.trim() || 'it gave no reason')}${where ? ` (${where})` : ''}. Opalite will not sign it.`;
}

export async function loadPreview(input: PreviewInput): Promise<SignPreview> {
  const { client, call, built, decoded, signer, chain } = input;
  const dry = await client.dryRun(built.signerPayloadJSON, { timeoutMs: PREVIEW_TIMEOUT_MS });
  const collections = await readCollections(client, call, dry?.changes ?? []);
  const ctx: WordsContext = {
    signer,
    native: { unit: chain.token, decimals: chain.decimals },
    nameOf: input.nameOf,
    collection: (id) => collections.get(id) ?? null
  };
  const w = wordsFor(ctx);
  const { summary, parts } = describeCall(call, ctx, dry?.changes ?? null);
  if (dry) {
    const sponsored = !sameAddress(dry.feePayer, signer);
    return {
      summary,
      parts,
      previewed: true,
      groups: describeChanges(dry.changes, ctx),
      fee: w.native(rawOf(dry.fee)),
      feePayer: { address: dry.feePayer, name: w.who(dry.feePayer), sponsored },
      refusal: dry.ok ? null : chainRefusal(dry.error, w.namedText),
      notes: dry.notes
    };
  }
  const feeAmount = decoded.fee ?? built.fee;
  const fee = rawOf(feeAmount);
  const needed = fee + nativeSpent(call);
  const notes = [`${client.baseUrl} cannot preview what this call will do (it has no dry run): only the call and its fee are shown. Read the call before you sign.`];
  let refusal: string | null = null;
  try {
    const balance = await client.balance(signer);
    const available = rawOf(balance.availableBalance ?? balance.freeBalance);
    if (available < needed) {
      refusal = `Your account has ${w.native(available)} on ${client.baseUrl}, and this needs ${w.native(needed)}${feeAmount ? ` (the fee included)` : ''}: it would not go through there, so Opalite will not sign it. Fund the account on that network first.`;
    }
  } catch (error) {
    notes.push(`Could not read your balance on ${client.baseUrl} to check the fee: ${errorText(error)}`);
  }
  return { summary, parts, previewed: false, groups: [], fee: feeAmount ? w.native(fee) : null, feePayer: null, refusal, notes };
}
