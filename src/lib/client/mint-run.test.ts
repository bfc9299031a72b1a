import { describe, expect, it } from 'vitest';
import { MAX_CALLS_PER_BATCH, MAX_TOKENS_PER_CALL } from '../limits';
import { parseMintList, type MintItem } from './mint-list';
import { API_BOUNDS, CALL_BODY_BUDGET, bodyBytes, limitProblems, planSignatures, planText, rowsToMint, tokenBody, type LimitContext, type RunRow } from './mint-run';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const MiB = 1024 * 1024;

const context = (over: Partial<LimitContext> = {}): LimitContext => ({
  room: null,
  tokenLimit: null,
  minted: 0,
  perAccount: null,
  owned: new Map(),
  signer: ALICE,
  imageBytes: new Map(),
  maxImageBytes: 20 * MiB,
  ...over
});
const items = (csv: string, files: string[] = []) => {
  const result = parseMintList(csv, null, files);
  expect(result.errors).toEqual([]);
  return result.items;
};

describe('planSignatures', () => {
  it('puts a run that fits one call into one signature', () => {
    expect(planSignatures([10, 10, 10])).toEqual([[[0, 1, 2]]]);
    expect(planText(12, 1)).toBe('12 tokens, 1 signature');
    expect(planText(1, 2)).toBe('1 token, 2 signatures');
  });

  it('splits calls at the create-multiple bound and keeps them in one signature (common.batch)', () => {
    const plan = planSignatures(Array(MAX_TOKENS_PER_CALL * 2 + 1).fill(100));
    expect(plan).toHaveLength(1);
    expect(plan[0].map((call) => call.length)).toEqual([MAX_TOKENS_PER_CALL, MAX_TOKENS_PER_CALL, 1]);
    expect(plan[0].flat()).toEqual([...Array(MAX_TOKENS_PER_CALL * 2 + 1).keys()]);
  });

  it('opens a new signature at the calls-per-batch bound and at the body size budget', () => {
    expect(planSignatures(Array(7).fill(1), { tokensPerCall: 2, callsPerSignature: 2, bytesPerSignature: 1000 }).map((s) => s.map((c) => c.length))).toEqual([[2, 2], [2, 1]]);
    expect(planSignatures([400, 400, 400, 1500, 10], { tokensPerCall: 10, callsPerSignature: 10, bytesPerSignature: 1000 })).toEqual([[[0, 1]], [[2]], [[3]], [[4]]]);
    expect(API_BOUNDS).toEqual({ tokensPerCall: MAX_TOKENS_PER_CALL, callsPerSignature: MAX_CALLS_PER_BATCH, bytesPerSignature: CALL_BODY_BUDGET });
  });

  it('sends the API item only (where a row came from stays on the page)', () => {
    const [item] = items(`name,image,owner\nFox,fox.png,${BOB}`, ['fox.png']);
    expect(tokenBody(item)).toEqual({ owner: BOB, data: { name: { _: 'Fox' } } });
    expect(bodyBytes({ a: 'é' })).toBe(JSON.stringify({ a: 'é' }).length + 2);
  });
});

describe('limitProblems', () => {
  it('passes a run within every limit', () => {
    expect(limitProblems(items('name\nA\nB'), context({ room: 2, tokenLimit: 5, minted: 3, perAccount: 2 }))).toEqual([]);
  });

  it('names the first row past the token limit', () => {
    expect(limitProblems(items('name\nA\nB\nC\nD'), context({ room: 2, tokenLimit: 10, minted: 8 }))).toEqual([
      'Line 4: the collection has room for 2 more tokens (its token limit is 10, 8 minted): this row and the 1 row after it do not fit'
    ]);
    expect(limitProblems(items('name\nA'), context({ room: 0, tokenLimit: 3, minted: 3 }))).toEqual([
      'Line 2: the collection has room for 0 more tokens (its token limit is 3, 3 minted): this row does not fit'
    ]);
  });

  it('names the owner column of the first row an account goes past its limit, counting what it owns', () => {
    const list = items(`name,owner\nA,${BOB}\nB,\nC,${BOB}\nD,${BOB}`);
    expect(limitProblems(list, context({ perAccount: 2, owned: new Map([[BOB, 1]]) }))).toEqual([
      `Line 4, column owner: ${BOB} would own 3 tokens of the collection, above its limit of 2 per account`
    ]);
    expect(limitProblems(items('name\nA\nB'), context({ perAccount: 1 }))).toEqual(['Line 3: you would own 2 tokens of the collection, above its limit of 1 per account']);
  });

  it('refuses a run over the rows bound and an image over the size limit', () => {
    expect(limitProblems(items('name\nA\nB\nC'), context({ maxRows: 2 }))).toEqual(['The list has 3 tokens; one run mints up to 2: split the list']);
    const list = items('name,image\nBig,big.png', ['big.png']);
    expect(limitProblems(list, context({ imageBytes: new Map([['big.png', 25 * MiB]]) }))).toEqual(['Line 2, column image: big.png is 25 MB, and the service takes files up to 20 MB']);
  });
});

describe('rowsToMint', () => {
  it('never takes a row again that is minted, being minted, or of unknown fate', () => {
    const item: MintItem = { data: {} };
    const rows: RunRow[] = [
      { item, state: 'minted', tokenId: 1 },
      { item, state: 'in-flight' },
      { item, state: 'unsure' },
      { item, state: 'waiting' }
    ];
    expect(rowsToMint(rows)).toEqual([rows[3]]);
  });
});
