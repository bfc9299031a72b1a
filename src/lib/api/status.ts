// The extrinsic status object: the union of the real service's fields across its eras.
import type { Ledger } from '../ledger/chain/ledger';
import type { QueryTx } from '../ledger/store';
import type { ExtrinsicRecord } from '../ledger/types';
import { feeResponse } from './fee';
import { parsedResult } from './parsed';

export async function statusJson(record: ExtrinsicRecord, ledger: Ledger, tx: QueryTx) {
  const block = record.blockNumber === null ? undefined : await tx.get('blocks', record.blockNumber);
  return {
    status: record.status,
    isCompleted: record.isCompleted,
    isError: record.isError,
    hash: record.hash,
    blockHash: record.blockHash,
    blockIndex: record.blockIndex,
    block: block
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
    events: record.events.map((e) => ({ section: e.section, method: e.method, data: e.data, index: e.index ?? null })),
    error: record.error ? { message: record.error.message, details: { section: record.error.section, name: record.error.name } } : null,
    parsed: (await parsedResult(record, tx, ledger.rules)) ?? null,
    fee: feeResponse(BigInt(record.fee), ledger.config.tokenSymbol, ledger.config.decimals),
    createdAt: record.createdAt,
    callMethod: record.callMethod,
    signer: record.signer,
    ...(record.callbackUrl ? { callbackUrl: record.callbackUrl } : {})
  };
}
