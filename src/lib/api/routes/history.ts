// What a call would do and what calls did: the dry run of a payload (the sign dialog's preview),
// the changes of an included extrinsic, and the explorer's reads of blocks and of an account's
// balance history. One change-list format for all (ledger/changes.ts).
import { z } from 'zod';
import type { SignerPayloadJSON } from '../../codec/payload';
import type { DryRunResult } from '../../ledger/chain/dry-run';
import { MAX_PAGE, accountHistory, balanceHistory, blocksFrom, changesOfExtrinsic, tokenHistory } from '../../ledger/history/explore';
import type { BlockRecord } from '../../ledger/types';
import { HistoryError } from '../../ledger/history/errors';
import { ApiError } from '../errors';
import { feeResponse } from '../fee';
import { jsonSafe } from '../json';
import { signerPayloadJSONSchema } from '../mutation';
import { plain } from '../route';
import { address, blockNumber, collectionId, hash32, tokenId, wholeNumber } from '../schemas';
import { dispatchErrorJson, statusJson } from '../status';
import { blockNamed } from './lookups';

const TAG = 'history';

const pageLimit = z.coerce.number({ error: 'limit must be a number' }).int({ error: 'limit must be an integer number' }).positive({ error: 'limit must be a positive number' }).max(MAX_PAGE, { error: `limit must be at most ${MAX_PAGE}` });
/** A place in history, `<block>:<seq>` (the `next` of the previous page). */
const place = z
  .string({ error: 'before must be a string' })
  .max(24, { error: 'before must be at most 24 characters long' })
  .regex(/^\d{1,10}:\d{1,7}$/, { error: 'before must be <block>:<seq>, as the previous page’s next' })
  .transform((text) => {
    const [block, seq] = text.split(':').map(Number);
    return { block, seq };
  });

/** The status object's error shape, so a client reads one shape. */

function blockJson(block: BlockRecord) {
  return { number: block.number, hash: block.hash, parentHash: block.parentHash, stateRoot: block.stateRoot, extrinsicsRoot: block.extrinsicsRoot, timestamp: block.timestamp, extrinsics: block.extrinsics };
}

const dryRunBody = z.object({ signerPayloadJSON: signerPayloadJSONSchema });
const blockQuery = z
  .object({
    number: blockNumber('number').optional(),
    hash: hash32('hash').optional(),
    // A block holds up to thousands of extrinsics: they are answered MAX_PAGE at a time.
    extrinsicsFrom: wholeNumber('extrinsicsFrom', 1_000_000).optional()
  })
  .refine((q) => (q.number === undefined) !== (q.hash === undefined), { error: 'give the block’s number or its hash (one of them)', path: ['number'] });

export const historyRoutes = [
  plain({
    method: 'POST',
    path: '/extrinsic/dry-run',
    tag: 'extrinsic',
    summary: 'What a payload would do in the next block now, writing nothing: {ok, error, fee, feePayer, events, changes, notes}',
    body: dryRunBody,
    handle: async ({ body }, { ledger }) => {
      const json = (body as z.output<typeof dryRunBody>).signerPayloadJSON as SignerPayloadJSON;
      const result: DryRunResult = await ledger.dryRunPayload(json);
      const { tokenSymbol, decimals } = ledger.config;
      return {
        status: 200,
        json: jsonSafe({ ok: result.ok, error: dispatchErrorJson(result.error), fee: feeResponse(result.fee, tokenSymbol, decimals), feePayer: result.feePayer, events: result.events, changes: result.changes, notes: result.notes })
      };
    }
  }),
  plain({
    method: 'GET',
    path: '/extrinsic/changes',
    tag: 'extrinsic',
    summary: 'What an included extrinsic changed, in the dry run’s format: {hash, blockNumber, blockHash, call: {section, method, args}, changes}',
    query: z.object({ hash: hash32('hash') }),
    handle: async ({ query }, { ledger }) => {
      const { hash } = query as { hash: string };
      const found = await ledger.read((tx) => changesOfExtrinsic(tx, hash.toLowerCase()));
      if (!found) {
        // Waiting in the pool: known, in no block yet (as /extrinsic/status says it).
        const waiting = await ledger.status(hash.toLowerCase());
        if (waiting) {
          const when = waiting.isCompleted ? 'it was never included and changed nothing' : 'it changed nothing yet';
          throw new HistoryError('unknown', `Extrinsic ${hash} is not in a block (status ${waiting.status}): ${when}`);
        }
        throw new ApiError('NotFoundError', `No extrinsic with hash ${hash} found`);
      }
      const [section, method] = found.record.call.name.split('.');
      return {
        status: 200,
        json: jsonSafe({ hash: found.record.hash, blockNumber: found.block.number, blockHash: found.block.hash, call: { section, method, args: found.record.call.args }, changes: found.changes })
      };
    }
  }),
  plain({
    method: 'GET',
    path: '/explorer/blocks',
    tag: TAG,
    summary: `Blocks from \`from\` down (the head when absent), newest first, at most \`limit\` (${MAX_PAGE}): {blocks}`,
    query: z.object({ from: blockNumber('from').optional(), limit: pageLimit.default(20) }),
    handle: async ({ query }, { ledger }) => {
      const { from, limit } = query as { from?: number; limit: number };
      const blocks = await ledger.read((tx) => blocksFrom(tx, from, limit));
      return { status: 200, json: { blocks: blocks.map(blockJson) } };
    }
  }),
  plain({
    method: 'GET',
    path: '/explorer/block',
    tag: TAG,
    summary: `One block by number or hash, with the status of each of its extrinsics (events included), at most ${MAX_PAGE} from index \`extrinsicsFrom\` (0): {block, extrinsics, more}`,
    query: blockQuery,
    handle: async ({ query }, { ledger }) => {
      const { number, hash, extrinsicsFrom = 0 } = query as { number?: number; hash?: string; extrinsicsFrom?: number };
      const answer = await ledger.read(async (tx) => {
        const block = await blockNamed(tx, number ?? hash!);
        if (!block) return null;
        const page = block.extrinsics.slice(extrinsicsFrom, extrinsicsFrom + MAX_PAGE);
        const records = await Promise.all(page.map((h) => tx.get('extrinsics', h)));
        const extrinsics = await Promise.all(records.flatMap((r) => (r ? [statusJson(r, ledger, tx)] : [])));
        return { block: blockJson(block), extrinsics, more: Math.max(0, block.extrinsics.length - extrinsicsFrom - page.length) };
      });
      if (!answer) throw new ApiError('BlockNotFoundError', number !== undefined ? `No block ${number} in this ledger` : `No block with hash ${hash} in this ledger`);
      return { status: 200, json: jsonSafe(answer) };
    }
  }),
  plain({
    method: 'GET',
    path: '/explorer/token-history',
    tag: TAG,
    summary: `A token's changes, newest first, each with the extrinsic that made it: {entries: [{blockNumber, blockHash, timestamp, extrinsic, changes}], next} (at most ${MAX_PAGE})`,
    query: z.object({ collectionId, tokenId, before: place.optional(), limit: pageLimit.default(20) }),
    handle: async ({ query }, { ledger }) => {
      const { collectionId: c, tokenId: t, before, limit } = query as { collectionId: number; tokenId: number; before?: { block: number; seq: number }; limit: number };
      const { entries, next } = await ledger.read((tx) => tokenHistory(tx, [c, t], before, limit));
      return { status: 200, json: jsonSafe({ entries, next: next ? `${next.block}:${next.seq}` : null }) };
    }
  }),
  plain({
    method: 'GET',
    path: '/explorer/balance-history',
    tag: TAG,
    summary: `An account's balance changes, newest first, each with the extrinsic that made it: {entries, next} (pass next as before for the next page; at most ${MAX_PAGE})`,
    query: z.object({ address, before: place.optional(), limit: pageLimit.default(20) }),
    handle: async ({ query }, { ledger }) => {
      const { address: who, before, limit } = query as { address: string; before?: { block: number; seq: number }; limit: number };
      const { entries, next } = await ledger.read((tx) => balanceHistory(tx, who, before, limit));
      return { status: 200, json: { entries, next: next ? `${next.block}:${next.seq}` : null } };
    }
  }),
  plain({
    method: 'GET',
    path: '/explorer/account-history',
    tag: TAG,
    summary: `Opalite extension. An account's history, newest first: one entry per extrinsic that changed something of it (transfers in and out, mints, burns, approvals, native transfers and fees), read from the kept row changes through an index by account: {entries: [{blockNumber, blockHash, timestamp, extrinsic, items: [{kind, collectionId?, tokenId?, counterparty, amount}], more, balance}], collections: {<id>: {mode, name, tokenPrefix, decimals}}, next} (amounts in the smallest unit; pass next as before for the next page; at most ${MAX_PAGE})`,
    query: z.object({ address, before: place.optional(), limit: pageLimit.default(20) }),
    handle: async ({ query }, { ledger }) => {
      const { address: who, before, limit } = query as { address: string; before?: { block: number; seq: number }; limit: number };
      const { entries, collections, next } = await ledger.read((tx) => accountHistory(tx, who, before, limit));
      return { status: 200, json: jsonSafe({ entries, collections, next: next ? `${next.block}:${next.seq}` : null }) };
    }
  })
];
