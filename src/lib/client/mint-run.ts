// A bulk mint run, planned before anything is signed: the rows checked against the collection's
// limits (rows per run, token limit, tokens per account, image size) by CSV line and column, and
// the tokens grouped into as few signed calls as the API's bounds allow (create-multiple takes
// up to 120 tokens; common.batch takes up to 120 such calls in one signature, within one request
// body). Pure: the page reads the numbers and sends the calls.
import { MAX_CALLS_PER_BATCH, MAX_JSON_BODY_BYTES, MAX_TOKENS_PER_CALL } from '../limits';
import { countText, fileSize } from './format';
import type { MintItem } from './mint-list';

/** Rows one run may mint: a whole PFP drop (10,000) in one list; the record lists the first rows and counts the rest. */
export const MAX_ROWS_PER_RUN = 10_000;
/** Encoded call bytes per byte of the rows' JSON, with room for heavier rows (a 4-attribute row encodes to 0.97× its JSON). */
const ENCODED_PER_JSON_BYTE = 1.25;
/**
 * Bytes of rows' JSON one signed call may carry. The signed call comes back as hex (2 characters
 * a byte) in the decode and submit request bodies, whose bound is the API's: the rows' JSON must
 * fit that bound once encoded and doubled, with room for the envelope.
 */
export const CALL_BODY_BUDGET = Math.floor((MAX_JSON_BODY_BYTES - 64 * 1024) / 2 / ENCODED_PER_JSON_BYTE);

/** The body item of `POST /tokens/create-multiple` for a row (what the page keeps beside it stays out). */
export type TokenBody = Pick<MintItem, 'owner' | 'data' | 'properties'>;

export function tokenBody(item: MintItem): TokenBody {
  const body: TokenBody = { data: item.data };
  if (item.owner) body.owner = item.owner;
  if (item.properties?.length) body.properties = item.properties;
  return body;
}

/** Bytes a row adds to a request body (its JSON in UTF-8, and a comma). */
export function bodyBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length + 1;
}

export interface PlanBounds {
  tokensPerCall: number;
  callsPerSignature: number;
  bytesPerSignature: number;
}

export const API_BOUNDS: PlanBounds = { tokensPerCall: MAX_TOKENS_PER_CALL, callsPerSignature: MAX_CALLS_PER_BATCH, bytesPerSignature: CALL_BODY_BUDGET };

/**
 * Row indices grouped as signed calls → create-multiple calls → rows, in order. A call holds at
 * most `tokensPerCall` rows; a signature holds at most `callsPerSignature` calls and
 * `bytesPerSignature` bytes of rows (a single larger row still gets a signature of its own).
 */
export function planSignatures(sizes: readonly number[], bounds: PlanBounds = API_BOUNDS): number[][][] {
  const signatures: number[][][] = [];
  let calls: number[][] = [];
  let call: number[] = [];
  let bytes = 0;
  const closeSignature = () => {
    if (call.length) calls.push(call);
    if (calls.length) signatures.push(calls);
    calls = [];
    call = [];
    bytes = 0;
  };
  sizes.forEach((size, index) => {
    const callFull = call.length >= bounds.tokensPerCall;
    const callsFull = callFull && calls.length + 1 >= bounds.callsPerSignature;
    if ((bytes > 0 && bytes + size > bounds.bytesPerSignature) || callsFull) closeSignature();
    else if (callFull) {
      calls.push(call);
      call = [];
    }
    call.push(index);
    bytes += size;
  });
  closeSignature();
  return signatures;
}

/** "12 tokens, 1 signature". */
export function planText(rows: number, signatures: number): string {
  return `${countText(rows, 'token')}, ${countText(signatures, 'signature')}`;
}

export interface LimitContext {
  /** Tokens the collection may still mint (its token limit less those minted, burned ones count); null: no limit known. */
  room: number | null;
  tokenLimit: number | null;
  minted: number;
  /** Tokens one account may own in the collection; null: no limit known. */
  perAccount: number | null;
  /** Tokens each owner holds in the collection now (those not looked up count as 0). */
  owned: ReadonlyMap<string, number>;
  /** Who owns a row's token when it names no owner. */
  signer: string;
  /** Sizes of the picked image files, by name. */
  imageBytes: ReadonlyMap<string, number>;
  maxImageBytes: number;
  maxRows?: number;
}

/** Each owner's tokens in the run, by address (rows without an owner count for the signer). */
export function tokensPerOwner(items: readonly MintItem[], signer: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.owner ?? signer, (counts.get(item.owner ?? signer) ?? 0) + 1);
  return counts;
}

/**
 * What the collection's limits refuse in the run, by row (CSV line and column): more rows than a
 * run takes, more tokens than the token limit leaves room for, an owner above the per-account
 * limit, an image file above the size the service takes.
 */
export function limitProblems(items: readonly MintItem[], context: LimitContext): string[] {
  const problems: string[] = [];
  const maxRows = context.maxRows ?? MAX_ROWS_PER_RUN;
  if (items.length > maxRows) problems.push(`The list has ${countText(items.length, 'token')}; one run mints up to ${maxRows}: split the list`);
  if (context.room !== null && items.length > context.room) {
    const first = items[Math.max(context.room, 0)];
    const after = items.length - Math.max(context.room, 0) - 1;
    problems.push(
      `${first.where ?? `Row ${context.room + 1}`}: the collection has room for ${countText(Math.max(context.room, 0), 'more token')} ` +
        `(its token limit is ${context.tokenLimit}, ${context.minted} minted): this row${after > 0 ? ` and the ${countText(after, 'row')} after it do` : ' does'} not fit`
    );
  }
  if (context.perAccount !== null) {
    const counts = new Map<string, number>();
    const reported = new Set<string>();
    for (const item of items) {
      const owner = item.owner ?? context.signer;
      const count = (counts.get(owner) ?? context.owned.get(owner) ?? 0) + 1;
      counts.set(owner, count);
      if (count <= context.perAccount || reported.has(owner)) continue;
      reported.add(owner);
      const who = item.owner ? `${owner} would own` : 'you would own';
      const where = item.owner ? (item.ownerWhere ?? item.where) : item.where;
      problems.push(`${where ?? 'A row'}: ${who} ${countText(count, 'token')} of the collection, above its limit of ${context.perAccount} per account`);
    }
  }
  for (const item of items) {
    const bytes = item.imageFile ? context.imageBytes.get(item.imageFile) : undefined;
    if (bytes !== undefined && bytes > context.maxImageBytes) {
      problems.push(`${item.imageWhere ?? item.where ?? 'A row'}: ${item.imageFile} is ${fileSize(bytes)}, and the service takes files up to ${fileSize(context.maxImageBytes)}`);
    }
  }
  return problems;
}

/** A row's state in a run's record. */
export type RowState = 'waiting' | 'in-flight' | 'minted' | 'unsure';

export interface RunRow {
  item: MintItem;
  state: RowState;
  tokenId?: number;
  /** The row's content fingerprint, remembered once it is minted (see mint-history). */
  print?: string;
}

/** The rows a new run may include: only those surely not minted and not being minted. */
export function rowsToMint(rows: readonly RunRow[]): RunRow[] {
  return rows.filter((row) => row.state === 'waiting');
}
