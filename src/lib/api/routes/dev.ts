// `/dev/*`: tools of the built-in ledger, not of the real service. Export, import and reset the
// whole ledger, seal a block by hand and switch block production. Every host (service worker,
// in-page, Node) passes these as extra routes, backed by its LedgerHost.
import { z } from 'zod';
import { bodyText, formFile } from '../body';
import { BLOCK_INTERVAL_MS, type BlockMode } from '../../ledger/chain/config';
import type { RuleSetName } from '../../ledger/rules';
import { MAX_HISTORY_BLOCKS, type HistoryPolicy } from '../../ledger/history/record';
import type { Snapshot } from '../../ledger/history/snapshots';
import type { BlockRecord } from '../../ledger/types';
import { ApiError, validationError } from '../errors';
import type { Route } from '../route';
import { feeResponse, fromUnits } from '../fee';
import { address, decimalString } from '../schemas';
import { MAX_DECIMAL_DIGITS, MAX_SEAL_COUNT, quote } from '../../limits';
import { plain } from '../route';

const resetBody = z.object({
  rules: z.enum(['spec', 'unique']).optional(),
  /** A fork starts a plain sandbox (a chain of its own) instead of its source's block again. */
  leaveFork: z.boolean({ error: 'leaveFork must be true or false' }).optional()
});

const sealBody = z.object({
  count: z
    .number({ error: 'count must be a number of blocks' })
    .int({ error: 'count must be a whole number' })
    .min(1, { error: 'count must be at least 1' })
    .max(MAX_SEAL_COUNT, { error: `count must be at most ${MAX_SEAL_COUNT}` })
    .optional()
});
const setBalanceBody = z.object({
  address,
  amount: z.union([decimalString('amount'), z.number().nonnegative()], { error: `amount must be a number or a decimal string of at most ${MAX_DECIMAL_DIGITS} digits` })
});
const forkBody = z.object({
  source: z
    .string({ error: 'source must be the REST base url of a network (…/v1)' })
    .max(2048, { error: 'source must be at most 2048 characters long' })
    .regex(/^https?:\/\/\S+$/i, { error: 'source must be an http:// or https:// url (the REST base url, …/v1)' }),
  blockHash: z.string({ error: 'blockHash must be a string' }).regex(/^0x[0-9a-fA-F]{64}$/, { error: 'blockHash must be 0x + 64 hex digits' }).optional()
});
const impersonationBody = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

const blockModeBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('instant') }),
  z.object({ kind: z.literal('manual') }),
  z.object({
    kind: z.literal('interval'),
    ms: z.coerce
      .number()
      .int()
      .min(BLOCK_INTERVAL_MS.min, { error: `ms must be at least ${BLOCK_INTERVAL_MS.min}` })
      .max(BLOCK_INTERVAL_MS.max, { error: `ms must be at most ${BLOCK_INTERVAL_MS.max}` })
  })
]);

/** A snapshot id as `POST /dev/snapshot` answers it (a decimal string); a number is taken too. */
const snapshotId = z
  .union([z.string().max(10, { error: 'snapshotId must be at most 10 characters long' }), z.number().int().positive().max(4_294_967_295)], { error: 'snapshotId must be a string' })
  .transform((v) => String(v))
  .refine((v) => /^[1-9]\d{0,9}$/.test(v), { error: 'snapshotId must be the id POST /dev/snapshot answered (digits)' });
const revertBody = z
  .object({
    snapshotId: snapshotId.optional(),
    blockHash: z.string({ error: 'blockHash must be a string' }).regex(/^0x[0-9a-fA-F]{64}$/, { error: 'blockHash must be 0x + 64 hex digits' }).optional()
  })
  .refine((b) => (b.snapshotId === undefined) !== (b.blockHash === undefined), { error: 'give snapshotId or blockHash (one of them)', path: ['snapshotId'] });

const historyBody = z.object({
  keepBlocks: z
    .number({ error: 'keepBlocks must be a number of blocks, or null for every block' })
    .int({ error: 'keepBlocks must be a whole number' })
    .min(0, { error: 'keepBlocks must be 0 or more' })
    .max(MAX_HISTORY_BLOCKS, { error: `keepBlocks must be at most ${MAX_HISTORY_BLOCKS}` })
    .nullable()
});

export type RevertTarget = { snapshotId: string } | { blockHash: string };

interface ChainSummary {
  network: string;
  rules: RuleSetName;
  genesisHash: string;
  head: { number: number; hash: string };
}

/** What the dev routes need of a host (LedgerHost implements it). */
export interface DevControls {
  status(): Promise<unknown>;
  exportSnapshot(): Promise<{ text: string; filename: string }>;
  /** Throws SnapshotError (a bad or foreign file) having changed nothing. */
  importSnapshot(text: string): Promise<ChainSummary>;
  /** `leaveFork`: a chain of its own, not the fork's source again (ForkUnavailableError on a host that forks only at start). */
  reset(rules?: RuleSetName, options?: { leaveFork?: boolean }): Promise<ChainSummary>;
  /** Replace the ledger with a fork of a network at a block (its head when none); ForkSourceError when the source fails, nothing changed. */
  startFork(request: { url: string; blockHash?: string }): Promise<ChainSummary>;
  sealBlock(): Promise<BlockRecord | null>;
  setBlockMode(mode: BlockMode): void;
  readonly blockMode: BlockMode;
  /** Keep this many blocks of state history from the next block on (null: every block); what is kept now. */
  setHistory(policy: HistoryPolicy): Promise<{ keepBlocks: number | null; start: number }>;
  /** A snapshot of the head (history/snapshots.ts). */
  snapshot(): Promise<Snapshot>;
  /** Every snapshot still valid, oldest first. */
  snapshots(): Promise<Snapshot[]>;
  /** Make the snapshot's block (or the named block) the head again; HistoryError when it cannot. */
  revert(target: RevertTarget): Promise<{ number: number; hash: string }>;
  /** Seal `count` blocks, empty ones too; the last. */
  sealBlocks(count: number): Promise<BlockRecord | null>;
  /** Set an account's free balance (smallest unit) in a block of its own. */
  setBalance(address: string, free: bigint): Promise<BlockRecord>;
  setImpersonation(enabled: boolean): void;
  readonly impersonate: boolean;
  readonly ledger: { config: { decimals: number; tokenSymbol: string } };
}

/**
 * The export sent to import, as text: a JSON body, or a file in the multipart field `file`. An
 * export is a file like an upload, so the upload limit bounds it, not the JSON one.
 */
async function exportText(request: Request, maxBytes: number): Promise<string> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) return bodyText(request, maxBytes, 'The ledger export');
  const file = await formFile(request, maxBytes);
  if (file === null) throw validationError('The form has no field "file" with the ledger export');
  return typeof file === 'string' ? file : file.text();
}

function snapshotFailure(error: unknown): never {
  // A file that is not an export of this ledger is the caller's mistake: 400, nothing changed.
  if (error instanceof Error && error.name === 'SnapshotError') throw validationError(error.message);
  throw error;
}

export function devRoutes(host: DevControls): Route[] {
  return [
    plain({
      method: 'GET',
      path: '/dev/status',
      tag: 'dev',
      summary: 'Which host answers, its versions, the chain (rules, genesis, head) and the block mode',
      handle: async () => ({ status: 200, json: await host.status() })
    }),
    plain({
      method: 'GET',
      path: '/dev/export',
      tag: 'dev',
      summary: 'The whole ledger as one JSON file (a download)',
      handle: async () => {
        const { text, filename } = await host.exportSnapshot();
        return new Response(text, {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="${filename}"`,
            'cache-control': 'no-store'
          }
        });
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/import',
      tag: 'dev',
      summary: 'Replace the ledger with an export (JSON body, or multipart field `file`); a bad file changes nothing',
      rawBody: true,
      accepts: ['json', 'multipart'],
      handle: async (_input, { request, limits }) => {
        const text = await exportText(request, limits.maxUploadBytes);
        const summary = await host.importSnapshot(text).catch(snapshotFailure);
        return { status: 201, json: summary };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/reset',
      tag: 'dev',
      summary:
        'Start a fresh chain (new genesis hash); `rules` chooses the rule set (default: the current one). A fork starts its source\'s block again, or with `leaveFork: true` a plain sandbox of its own',
      body: resetBody,
      handle: async ({ body }) => {
        const { rules, leaveFork } = body as z.output<typeof resetBody>;
        const summary = await host.reset(rules, { leaveFork }).catch((e: unknown) => {
          if (e instanceof Error && e.name === 'ForkUnavailableError') throw validationError(e.message);
          throw e;
        });
        return { status: 201, json: summary };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/fork',
      tag: 'dev',
      summary: "Replace the ledger with a fork of a network: `source` its REST base url (…/v1), `blockHash` the block (default: its head). Nothing changes when the source fails (502, 504 when it timed out)",
      body: forkBody,
      handle: async ({ body }) => {
        const { source, blockHash } = body as z.output<typeof forkBody>;
        const summary = await host.startFork({ url: source, blockHash }).catch((e: unknown) => {
          // A host that forks only at start, or a source that is this host itself: the caller's to change.
          if (e instanceof Error && (e.name === 'ForkUnavailableError' || e.name === 'ForkStartError')) throw validationError(e.message);
          throw e;
        });
        return { status: 201, json: summary };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/blocks/seal',
      tag: 'dev',
      summary: 'Put every waiting extrinsic into one new block now (manual and interval modes)',
      // A JSON body (`{}` or none), so that a browser on another site cannot seal without asking.
      body: z.object({}).describe('Nothing: send {}'),
      handle: async () => {
        const block = await host.sealBlock().catch((e: unknown) => {
          // Another tab imported or reset the ledger under this host's pool: nothing was written.
          if (e instanceof Error && e.name === 'LedgerReplacedError') throw new ApiError('SubmitExtrinsicError', e.message, undefined, 409);
          throw e;
        });
        return { status: 201, json: { block: block && { number: block.number, hash: block.hash, extrinsics: block.extrinsics } } };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/seal',
      tag: 'dev',
      summary: `Seal \`count\` blocks now (default 1, at most ${MAX_SEAL_COUNT}), empty ones too, for what counts blocks (sponsor timeouts, rate limits): {block, count} (Anvil's mine)`,
      body: sealBody,
      handle: async ({ body }) => {
        const count = (body as z.output<typeof sealBody>).count ?? 1;
        const block = await host.sealBlocks(count);
        return { status: 201, json: { block: block && { number: block.number, hash: block.hash }, count } };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/set-balance',
      tag: 'dev',
      summary: "Set an account's free balance to `amount` whole units, in a block of its own (Anvil's setBalance): {address, freeBalance, block}",
      body: setBalanceBody,
      handle: async ({ body }) => {
        const { address: who, amount } = body as z.output<typeof setBalanceBody>;
        const { decimals, tokenSymbol } = host.ledger.config;
        const free = fromUnits(amount, decimals);
        if (free === null) throw validationError(`amount must be a non-negative decimal number of whole units with at most ${decimals} decimals: ${quote(String(amount))}`);
        const block = await host.setBalance(who, free);
        return { status: 201, json: { address: who, freeBalance: feeResponse(free, tokenSymbol, decimals), block: { number: block.number, hash: block.hash } } };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/impersonation',
      tag: 'dev',
      summary: 'Switch impersonation (`Authorization: Impersonate <address>` signs as that address without its key) on or off: {impersonate}',
      body: impersonationBody,
      handle: async ({ body }) => {
        host.setImpersonation((body as z.output<typeof impersonationBody>).enabled);
        return { status: 201, json: { impersonate: host.impersonate } };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/history',
      tag: 'dev',
      summary: 'How many blocks of state history to keep below the head, from the next block on ({keepBlocks: n}, or null for every block): {history}',
      body: historyBody,
      handle: async ({ body }) => {
        return { status: 201, json: { history: await host.setHistory({ keepBlocks: (body as z.output<typeof historyBody>).keepBlocks }) } };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/snapshot',
      tag: 'dev',
      summary: 'Take a snapshot of the head, to revert to later: {snapshotId, blockNumber, blockHash}',
      body: z.object({}).describe('Nothing: send {}'),
      handle: async () => {
        const { snapshotId, blockNumber, blockHash } = await host.snapshot();
        return { status: 201, json: { snapshotId, blockNumber, blockHash } };
      }
    }),
    plain({
      method: 'GET',
      path: '/dev/snapshots',
      tag: 'dev',
      summary: 'The snapshots that can be reverted to, oldest first: {snapshots: [{snapshotId, blockNumber, blockHash, createdAt}]}',
      handle: async () => ({ status: 200, json: { snapshots: await host.snapshots() } })
    }),
    plain({
      method: 'POST',
      path: '/dev/revert',
      tag: 'dev',
      summary:
        'Make an earlier block the head again, by {snapshotId} or {blockHash}: every read, nonce and balance as it was then; later blocks are gone and their extrinsics answer Invalid (Reverted): {blockNumber, blockHash}',
      body: revertBody,
      handle: async ({ body }) => {
        const target = body as z.output<typeof revertBody>;
        const head = await host.revert(target.snapshotId !== undefined ? { snapshotId: target.snapshotId } : { blockHash: target.blockHash!.toLowerCase() });
        return { status: 200, json: { blockNumber: head.number, blockHash: head.hash } };
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/block-mode',
      tag: 'dev',
      summary: 'Block production: `instant` (default), `interval` every `ms`, or `manual` (seal by hand)',
      body: blockModeBody,
      handle: async ({ body }) => {
        host.setBlockMode(body as BlockMode);
        return { status: 201, json: { blockMode: host.blockMode } };
      }
    })
  ];
}
