// The dry run: what a signed payload would do if it went into the next block now, computed by
// running the block's own inclusion step (fee, nonce, dispatch) into an overlay that is never
// written. The sign dialog shows it before a signature is made; `POST /extrinsic/dry-run` answers
// it to tools. Nothing is stored, whatever the outcome.
import { fromHex } from '../../codec/hash';
import { signedExtrinsicLength } from '../../codec/extrinsic';
import type { SignerPayloadJSON } from '../../codec/payload';
import { loadAccount } from '../balances';
import { describeChanges, type Change } from '../changes';
import { Overlay } from '../overlay';
import type { RuleSet } from '../rules';
import type { QueryTx } from '../store';
import type { Address, Call, DispatchErrorInfo, LedgerEvent } from '../types';
import { includeExtrinsic, type Head } from './block';
import type { ChainConfig } from './config';
import { TransactionError } from './errors';
import { inclusionFee } from './fees';
import { checkPayloadAgainstChain, payloadEra } from './payload-builder';

export interface DryRunResult {
  /** The call would be included and succeed. */
  ok: boolean;
  /** Why not: refused before inclusion (section `system`: nonce, era, fee) or the call's own chain error. */
  error: DispatchErrorInfo | null;
  /** The fee (without deposits, which the call's own changes show), smallest unit. */
  fee: bigint;
  /** Who would pay it: the signer, or the collection's sponsor. */
  feePayer: Address;
  /** The events the block would record for it. */
  events: LedgerEvent[];
  /** What it would change, in the one change-list format (changes.ts). */
  changes: Change[];
  /** What the simulation could not take into account, said plainly. */
  notes: string[];
}

export interface DryRunInput {
  json: SignerPayloadJSON;
  /** The payload's signer, canonical. */
  signer: Address;
  /** Its call, decoded completely (the signing rule checked it). */
  call: Call;
  now: number;
  /** The account's next nonce, counting what waits in the pool (a higher one is a gap submit refuses). */
  nextNonce: number;
}

function refusal(error: TransactionError, fee: bigint, signer: Address): DryRunResult {
  const name = typeof error.details?.reason === 'string' ? error.details.reason : 'Invalid';
  return { ok: false, error: { section: 'system', name, message: error.message }, fee, feePayer: signer, events: [], changes: [], notes: [] };
}

/** Dry-run `input` against the state read by `tx`, as the block after `head` would include it. */
export async function dryRunPayload(tx: QueryTx, input: DryRunInput, config: ChainConfig, head: Head, rules: RuleSet): Promise<DryRunResult> {
  const { json, signer, call } = input;
  const nonce = Number.parseInt(json.nonce, 16);
  const era = payloadEra(json);
  // No tip: the signing rule the dry run answers under refuses a payload with one.
  const fee = inclusionFee(call, signedExtrinsicLength(fromHex(json.method).length, fromHex(json.era).length, nonce, 0n), rules);
  let validUntil: number;
  try {
    validUntil = await checkPayloadAgainstChain(tx, config, json, era, head);
  } catch (error) {
    if (error instanceof TransactionError) return refusal(error, fee, signer);
    throw error;
  }
  const notes: string[] = [];
  const stored = (await loadAccount(tx, signer)).nonce;
  // Extrinsics of this account still waiting for a block come first; their effects are not in the state read here.
  const waiting = Math.min(nonce, input.nextNonce) - stored;
  if (waiting > 0) notes.push(`${waiting} earlier extrinsic(s) of this account wait for a block: what they change is not included here`);
  // A payload signed ahead (a sequence): submit refuses it until the nonces before it are submitted.
  if (nonce > input.nextNonce) {
    const missing = nonce - input.nextNonce;
    notes.push(`Nonce ${nonce} is ahead of the account's next nonce ${input.nextNonce}: ${missing === 1 ? `nonce ${input.nextNonce} must` : `nonces ${input.nextNonce}–${nonce - 1} must`} be submitted first, or submit refuses it (what they change is not included here)`);
  }
  const overlay = new Overlay(tx);
  const pending = { hash: '0x', signer, nonce: Math.min(nonce, stored), call, fee, validUntil, createdAt: input.now };
  const result = await includeExtrinsic(overlay, pending, head.number + 1, rules);
  if ('rejected' in result) return { ...refusal(result.rejected, fee, signer), notes };
  const record = result.included;
  return { ok: record.error === null, error: record.error, fee, feePayer: record.feePayer, events: record.events, changes: describeChanges(overlay.rowChanges()), notes };
}
