// The extrinsic status object: the union of the real service's fields across its eras.
import type { Ledger } from '../ledger/chain/ledger';
import type { QueryTx } from '../ledger/store';
import type { BlockRecord, DispatchErrorInfo, ExtrinsicRecord, LedgerEvent } from '../ledger/types';
import { currentRecord } from '../ledger/history/revert';
import { boundText } from './errors';
import { feeResponse } from './fee';
import { parsedResult } from './parsed';

/** An event as the status object (and `GET /extrinsic`) lists it. */
export const eventJson = (e: LedgerEvent) => ({ section: e.section, method: e.method, data: e.data, index: e.index ?? null });

/** A dispatch error as the status object (and the dry run) answers it; chain messages may repeat a request's property key (up to 4,096 characters), so it is bounded as every error is. */
export const dispatchErrorJson = (error: DispatchErrorInfo | null | undefined) =>
  error ? { message: boundText(error.message), details: { section: error.section, name: error.name } } : null;

/** `known`: the block holding `stored` (null: none), when the caller has it; else it is read through `tx`. */
export async function statusJson(stored: ExtrinsicRecord, ledger: Ledger, tx: QueryTx, known?: BlockRecord | null) {
  const block = known !== undefined ? (known ?? undefined) : stored.blockNumber === null ? undefined : await tx.get('blocks', stored.blockNumber);
  // An extrinsic of a block reverted away answers Invalid / Reverted (history/revert.ts).
  const record = await currentRecord(tx, stored, block ?? null);
  return {
    status: record.status,
    isCompleted: record.isCompleted,
    isError: record.isError,
    hash: record.hash,
    blockHash: record.blockHash,
    blockIndex: record.blockIndex,
    block: block && record.blockNumber !== null
      ? {
          hash: block.hash,
          header: {
            hash: block.hash,
            parentHash: block.parentHash,
            number: block.number,
            stateRoot: block.stateRoot,
            extrinsicsRoot: block.extrinsicsRoot,
            digest: { logs: [] }
          }
        }
      : null,
    events: record.events.map(eventJson),
    error: dispatchErrorJson(record.error),
    parsed: (await parsedResult(record, tx, ledger.rules)) ?? null,
    fee: feeResponse(BigInt(record.fee), ledger.config.tokenSymbol, ledger.config.decimals),
    createdAt: record.createdAt,
    callMethod: record.callMethod,
    signer: record.signer,
    ...(record.callbackUrl ? { callbackUrl: record.callbackUrl } : {}),
    // Opalite: signed by impersonation (absent otherwise, so answers of the real service's shape are unchanged).
    ...(record.impersonated ? { impersonated: true } : {})
  };
}
