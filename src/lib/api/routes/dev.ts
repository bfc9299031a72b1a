// `/dev/*`: tools of the built-in ledger, not of the real service. Export, import and reset the
// whole ledger, seal a block by hand and switch block production. Every host (service worker,
// in-page, Node) passes these as extra routes, backed by its LedgerHost.
import { z } from 'zod';
import { bodyText, formFile, readBodyBytes } from '../body';
import { archiveStream, isZip, planArchive, unpackArchive, type ArchivedFile, type ArchivePlan } from '../ipfs/ledger-archive';
import { bytesOf, type StoredFile } from '../ipfs/tree-store';
import { BLOCK_INTERVAL_MS, type BlockMode } from '../../ledger/chain/config';
import type { RuleSetName } from '../../ledger/rules';
import { MAX_HISTORY_BLOCKS, type HistoryPolicy } from '../../ledger/history/record';
import type { Snapshot } from '../../ledger/history/snapshots';
import type { BlockRecord } from '../../ledger/types';
import { ApiError, payloadTooLarge, validationError } from '../errors';
import type { Route } from '../route';
import { feeResponse, rawUnits } from '../fee';
import { address, decimalString, hash32 } from '../schemas';
import { MAX_DECIMAL_DIGITS, MAX_LEDGER_ARCHIVE_BYTES, MAX_LEDGER_ARCHIVE_FILES, MAX_SEAL_COUNT } from '../../limits';
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
  blockHash: hash32('blockHash').optional()
});
const impersonationBody = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

const blockModeBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('instant') }),
  z.object({ kind: z.literal('manual') }),
  z.object({
    kind: z.literal('interval'),
    // Without `ms`, coercion makes NaN: say what is missing rather than "received NaN".
    ms: z.coerce
      .number({ error: 'interval blocks need ms, a whole number of milliseconds' })
      .int({ error: 'ms must be a whole number of milliseconds' })
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
    blockHash: hash32('blockHash').optional()
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
  /** Throws SnapshotError (a bad or foreign file) having changed nothing; `beforeReplace` runs once the export is checked. */
  importSnapshot(text: string, options?: { beforeReplace?: () => Promise<void> }): Promise<ChainSummary>;
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

/** The stored files (IPFS store) an export with files reads and an import of an archive stores. */
export interface LedgerFiles {
  listFiles(limit: number): Promise<ArchivedFile[]>;
  getFile(cid: string): Promise<StoredFile | undefined>;
  /** Store the files not stored yet, all in one transaction or none. */
  addFiles(files: readonly { cid: string; bytes: Uint8Array; type: string; name: string }[]): Promise<void>;
}

const exportQuery = z.object({
  files: z.enum(['0', '1'], { error: 'files must be 1 (a ZIP archive of the ledger and its stored files) or 0 (the ledger JSON)' }).optional()
});

/** The largest import body: a ledger archive, or a JSON export as large as an upload. */
const importCap = (maxUploadBytes: number) => Math.max(MAX_LEDGER_ARCHIVE_BYTES, maxUploadBytes);

/**
 * The export sent to import: a JSON body (bounded by the upload limit, an export being a file like
 * an upload), a raw `application/zip` body, or either as the multipart field `file`.
 */
async function importBody(request: Request, maxUploadBytes: number): Promise<{ text: string } | { zip: Uint8Array }> {
  const type = request.headers.get('content-type') ?? '';
  if (/^application\/zip/i.test(type)) return { zip: await readBodyBytes(request, importCap(maxUploadBytes), 'The ledger archive') };
  if (!/^multipart\/form-data/i.test(type)) return { text: await bodyText(request, maxUploadBytes, 'The ledger export') };
  const file = await formFile(request, importCap(maxUploadBytes));
  if (file === null) throw validationError('The form has no field "file" with the ledger export');
  if (typeof file === 'string') return { text: file };
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (isZip(bytes)) return { zip: bytes };
  if (bytes.byteLength > maxUploadBytes) throw payloadTooLarge(maxUploadBytes, 'The ledger export');
  return { text: new TextDecoder().decode(bytes) };
}

/** A rejection whose error is one of `names` (a host that cannot do what was asked, as asked) becomes a 400 with its message. */
const asValidation =
  (...names: string[]) =>
  (e: unknown): never => {
    if (e instanceof Error && names.includes(e.name)) throw validationError(e.message);
    throw e;
  };

// A file that is not an export of this ledger is the caller's mistake: 400, nothing changed.
const snapshotFailure = asValidation('SnapshotError');

/** The ledger export `text` as a ZIP archive with every stored file: its plan (exact size). */
async function archiveOf(text: string, files: LedgerFiles | undefined): Promise<ArchivePlan> {
  // One more than an archive holds, so that too many files is said, not cut short.
  const stored = files ? await files.listFiles(MAX_LEDGER_ARCHIVE_FILES + 1) : [];
  return planArchive(text, stored);
}

/**
 * `files`: the host's file store, so an export can carry the uploaded files and an import restore
 * them (the browser and Node hosts pass theirs; without it archives hold no files).
 */
export function devRoutes(host: DevControls, options: { files?: LedgerFiles } = {}): Route[] {
  const { files } = options;
  const readFile = async (cid: string) => {
    const file = files && (await files.getFile(cid));
    if (!file) throw new Error(`The stored file ${cid} was deleted while the ledger was exported`);
    return bytesOf(file);
  };
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
      summary:
        'The whole ledger as one JSON file (a download). `files=1`: a ZIP archive instead (`manifest.json`, `ledger.json` the same JSON, `files/<cid>` every stored file), streamed with its content-length; /dev/import takes both',
      query: exportQuery,
      handle: async ({ query }) => {
        if ((query as z.output<typeof exportQuery>).files === '1') {
          const { text, filename } = await host.exportSnapshot();
          const plan = await archiveOf(text, files);
          return new Response(archiveStream(plan, readFile, Date.now()), {
            headers: {
              'content-type': 'application/zip',
              'content-length': String(plan.size),
              'content-disposition': `attachment; filename="${filename.replace(/\.json$/, '.zip')}"`,
              'cache-control': 'no-store'
            }
          });
        }
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
      method: 'GET',
      path: '/dev/export/size',
      tag: 'dev',
      summary:
        'Bytes of the two exports before downloading them: {json: {bytes}, archive: {bytes, files, fileBytes, refused}} (`refused`: why the archive cannot be made, else null)',
      handle: async () => {
        const { text } = await host.exportSnapshot();
        const json = { bytes: new TextEncoder().encode(text).byteLength };
        try {
          const plan = await archiveOf(text, files);
          const fileBytes = plan.files.reduce((sum, file) => sum + file.size, 0);
          return { status: 200, json: { json, archive: { bytes: plan.size, files: plan.files.length, fileBytes, refused: null } } };
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          return { status: 200, json: { json, archive: { bytes: null, files: null, fileBytes: null, refused: e.message } } };
        }
      }
    }),
    plain({
      method: 'POST',
      path: '/dev/import',
      tag: 'dev',
      summary: `Replace the ledger with an export: JSON (body, or multipart field \`file\`), or a ZIP archive of /dev/export?files=1 (\`application/zip\` body, or the field \`file\`; at most ${MAX_LEDGER_ARCHIVE_BYTES / 1024 / 1024} MiB and ${MAX_LEDGER_ARCHIVE_FILES} files, each CID checked against its bytes), whose files are stored too. A bad file changes nothing`,
      rawBody: true,
      accepts: ['json', 'multipart', 'zip'],
      handle: async (_input, { request, limits }) => {
        const body = await importBody(request, limits.maxUploadBytes);
        if ('text' in body) return { status: 201, json: await host.importSnapshot(body.text).catch(snapshotFailure) };
        const archive = await unpackArchive(body.zip, { maxFileBytes: limits.maxUploadBytes });
        if (!files && archive.files.length > 0) throw validationError('This host keeps no uploaded files, so it cannot import an archive with files');
        // Files first (one transaction; content-addressed, so they change no file stored before), then the ledger.
        const summary = await host
          .importSnapshot(archive.ledgerText, { beforeReplace: () => files?.addFiles(archive.files) ?? Promise.resolve() })
          .catch(snapshotFailure);
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
        const summary = await host.reset(rules, { leaveFork }).catch(asValidation('ForkUnavailableError'));
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
        // A host that forks only at start, or a source that is this host itself: the caller's to change.
        const summary = await host.startFork({ url: source, blockHash }).catch(asValidation('ForkUnavailableError', 'ForkStartError'));
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
        const free = rawUnits(amount, decimals);
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
