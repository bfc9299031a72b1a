// Block production: apply a batch of verified extrinsics in one transaction. Each extrinsic is a
// checkpoint; a failed dispatch keeps only the fee, the nonce bump and the failure events.
import { blake2b256, fromHex, toHex } from '../../codec/hash';
import { deposit, loadAccount, TREASURY } from '../balances';
import { NESTING_BUDGET } from '../constants';
import type { DispatchContext } from '../context';
import { dispatchCall } from '../dispatch';
import { DispatchError } from '../errors';
import { readMeta } from '../meta';
import { Overlay } from '../overlay';
import type { RuleSet } from '../rules';
import type { QueryTx, RowChange, StateTx } from '../store';
import type { Address, BlockRecord, Call, DispatchErrorInfo, ExtrinsicRecord, LedgerEvent, PoolRecord } from '../types';
import { TransactionError } from './errors';
import { chooseFeePayer } from './sponsorship';

/** A signed extrinsic that passed the signature and payload checks, waiting for a block. */
export type PendingExtrinsic = PoolRecord;

export type InclusionResult = { included: ExtrinsicRecord } | { rejected: TransactionError };

export interface Head {
  number: number;
  hash: string;
}

function blockHashOf(number: number, parentHash: string, extrinsics: string[], timestamp: number): string {
  const parts = [`${number}`, parentHash, `${timestamp}`, ...extrinsics].join('|');
  return toHex(blake2b256(new TextEncoder().encode(parts)));
}

function rootOf(hashes: string[]): string {
  const bytes = new Uint8Array(hashes.length * 32);
  hashes.forEach((h, i) => bytes.set(fromHex(h), i * 32));
  return toHex(blake2b256(bytes));
}

/** Order a batch so each signer's extrinsics come in nonce order, signers in arrival order. */
export function orderBatch(batch: PendingExtrinsic[]): PendingExtrinsic[] {
  const bySigner = new Map<Address, PendingExtrinsic[]>();
  for (const p of batch) bySigner.set(p.signer, [...(bySigner.get(p.signer) ?? []), p]);
  return [...bySigner.values()].flatMap((list) => list.sort((a, b) => a.nonce - b.nonce));
}

function errorInfo(e: DispatchError): DispatchErrorInfo {
  return { section: e.section, name: e.errorName, message: e.message };
}

/** A row change of a block, attributed to the extrinsic at `extrinsic` in the block (null: the block's own, its head). */
export interface BlockRowChange extends RowChange {
  extrinsic: number | null;
}

/**
 * What the chain does with one extrinsic at inclusion, inside `state` (an overlay the caller
 * commits or drops): the nonce, era and payment checks, then fee, nonce and dispatch. Refused
 * (`rejected`) before anything is written. The block and the dry run both run this.
 */
export async function includeExtrinsic(state: StateTx, pending: PendingExtrinsic, number: number, rules: RuleSet): Promise<InclusionResult> {
  const account = await loadAccount(state, pending.signer);
  if (pending.nonce !== account.nonce) {
    const stale = pending.nonce < account.nonce;
    const why = stale ? 'is outdated (nonce already used)' : 'has a nonce gap';
    return { rejected: new TransactionError('Invalid', `Transaction ${why}: expected nonce ${account.nonce}, got ${pending.nonce}`, { reason: stale ? 'Stale' : 'Future' }) };
  }
  if (number > pending.validUntil) {
    return { rejected: new TransactionError('Invalid', 'Transaction is outdated: its mortal era has ended', { reason: 'AncientBirthBlock' }) };
  }
  const payer = await chooseFeePayer(state, pending.call, pending.signer, pending.fee, number, rules);
  const payerAccount = await loadAccount(state, payer.payer);
  if (payerAccount.free < pending.fee) {
    return {
      rejected: new TransactionError('Invalid', 'Inability to pay some fees (e.g. account balance too low)', {
        fee: pending.fee.toString(),
        balance: payerAccount.free.toString(),
        reason: 'Payment'
      })
    };
  }
  const record = await applyExtrinsic(state, pending, payer.payer, number, rules);
  await payer.markSponsored();
  return { included: record };
}

/**
 * Produce the next block from `batch` inside the write transaction `tx`.
 * Returns one result per extrinsic, in batch order, the new block, and the rows it changed
 * (each extrinsic runs in an overlay of its own, whose entries say what it changed).
 */
export async function produceBlock(
  tx: QueryTx,
  batch: PendingExtrinsic[],
  rules: RuleSet,
  now: number,
  /** A change the block itself makes before its extrinsics (a dev tool's, e.g. set-balance); kept in history as the block's own. */
  headChange?: (state: StateTx) => Promise<void>
): Promise<{ block: BlockRecord; results: Map<string, InclusionResult>; changes: BlockRowChange[] }> {
  // The head and the accounts every extrinsic starts from, in one round of reads rather than one
  // per extrinsic: a browser's store answers each read in a round trip, remembering the row for
  // the rest of the transaction (storage/dexie-store.ts), and the block holds the writer lock.
  const starts = [...new Set([...batch.map((p) => p.signer), TREASURY])];
  const [head] = await Promise.all([readMeta<Head>(tx, 'head', { number: 0, hash: '' }), ...starts.map((a) => tx.get('accounts', a))]);
  const number = head.number + 1;
  const results = new Map<string, InclusionResult>();
  const records: ExtrinsicRecord[] = [];
  const changes: BlockRowChange[] = [];
  if (headChange) {
    const scope = new Overlay(tx);
    await headChange(scope);
    for (const change of scope.rowChanges()) changes.push({ ...change, extrinsic: null });
    await scope.commit();
  }

  for (const pending of orderBatch(batch)) {
    const scope = new Overlay(tx);
    const result = await includeExtrinsic(scope, pending, number, rules);
    if ('rejected' in result) {
      results.set(pending.hash, result);
      continue;
    }
    const record = result.included;
    record.blockIndex = records.length;
    for (const change of scope.rowChanges()) changes.push({ ...change, extrinsic: record.blockIndex });
    await scope.commit();
    records.push(record);
  }

  const hashes = records.map((r) => r.hash);
  const block: BlockRecord = {
    number,
    hash: blockHashOf(number, head.hash, hashes, now),
    parentHash: head.hash,
    stateRoot: rootOf([head.hash, ...hashes]),
    extrinsicsRoot: rootOf(hashes),
    timestamp: now,
    extrinsics: hashes
  };
  let eventIndex = 0;
  for (const record of records) {
    record.blockNumber = number;
    record.blockHash = block.hash;
    for (const event of record.events) event.index = eventIndex++;
    await tx.put('extrinsics', record);
    results.set(record.hash, { included: record });
  }
  await tx.put('blocks', block);
  const headRow = { key: 'head', value: { number, hash: block.hash } satisfies Head };
  changes.push({ table: 'meta', key: 'head', before: await tx.get('meta', 'head'), after: headRow, extrinsic: null });
  await tx.put('meta', headRow);
  return { block, results, changes };
}

/** Charge the fee, bump the nonce, dispatch in a checkpoint; keep the call's changes only on success. */
async function applyExtrinsic(tx: StateTx, pending: PendingExtrinsic, payer: Address, blockNumber: number, rules: RuleSet): Promise<ExtrinsicRecord> {
  const fee = pending.fee;
  const signerAccount = await loadAccount(tx, pending.signer);
  await tx.put('accounts', { ...signerAccount, nonce: signerAccount.nonce + 1 });
  const payerAccount = await loadAccount(tx, payer);
  await tx.put('accounts', { ...payerAccount, free: payerAccount.free - fee });
  await deposit(tx, TREASURY, fee);

  const overlay = new Overlay(tx);
  const callEvents: LedgerEvent[] = [];
  const ctx: DispatchContext = {
    state: overlay,
    signer: pending.signer,
    rules,
    blockNumber,
    nestingBudget: { remaining: NESTING_BUDGET },
    emit: (section, method, data) => callEvents.push({ section, method, data }),
    events: callEvents
  };
  let error: DispatchErrorInfo | null = null;
  try {
    await dispatchCall(ctx, pending.call);
    await overlay.commit();
  } catch (e) {
    if (!(e instanceof DispatchError)) throw e;
    error = errorInfo(e);
  }

  const dispatchInfo = { class: 'Normal', paysFee: 'Yes' };
  const events: LedgerEvent[] = [
    { section: 'balances', method: 'Withdraw', data: { who: payer, amount: fee.toString() } },
    ...(error ? [] : callEvents),
    { section: 'treasury', method: 'Deposit', data: { value: fee.toString() } },
    { section: 'transactionPayment', method: 'TransactionFeePaid', data: { who: payer, actualFee: fee.toString(), tip: '0' } },
    error
      ? { section: 'system', method: 'ExtrinsicFailed', data: { dispatchError: { module: { section: error.section, name: error.name } }, dispatchInfo } }
      : { section: 'system', method: 'ExtrinsicSuccess', data: { dispatchInfo } }
  ];
  const [section, method] = pending.call.name.split('.');
  return {
    hash: pending.hash,
    signer: pending.signer,
    nonce: pending.nonce,
    callMethod: { section, method },
    call: pending.call,
    status: error ? 'Error' : 'InBlock',
    isCompleted: true,
    isError: error !== null,
    blockNumber,
    blockHash: null,
    blockIndex: null,
    events,
    error,
    fee: fee.toString(),
    feePayer: payer,
    createdAt: pending.createdAt,
    ...(pending.callbackUrl ? { callbackUrl: pending.callbackUrl } : {}),
    ...(pending.impersonated ? { impersonated: true as const } : {})
  };
}
