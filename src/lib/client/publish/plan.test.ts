import { describe, expect, it } from 'vitest';
import { buildPlan, callOf, planSummary, stepTitle } from './plan';
import { cidsIn, rewriteValue } from './images';
import { BOB, CID_A, CID_B, ME, sourceOf } from './testing/source';

describe('publish plan', () => {
  it('finds CIDs in values: bare, ipfs:// and gateway URLs', () => {
    expect(cidsIn(`ipfs://${CID_A} and https://x/ipfs/${CID_B}`)).toEqual([CID_A, CID_B]);
    expect(cidsIn('no files here, Qm123')).toEqual([]);
  });

  it('rewrites CIDs and the source gateway URLs to the target files', () => {
    const files = { [CID_B]: { cid: CID_A, fileUrl: `http://target.test/ipfs/${CID_A}` } };
    expect(rewriteValue(`http://sandbox.test/ipfs/${CID_B}`, files, 'http://sandbox.test/ipfs')).toBe(`http://target.test/ipfs/${CID_A}`);
    expect(rewriteValue(`ipfs://${CID_B}`, files, 'http://sandbox.test/ipfs')).toBe(`ipfs://${CID_A}`);
  });

  it('plans uploads, creation, one mint, nests deepest first, and the bundle top sent to its owner', () => {
    const plan = buildPlan(sourceOf(), ME, [
      { cid: CID_A, bytes: 10 },
      { cid: CID_B, bytes: 20 }
    ]);
    expect(plan.problems).toEqual([]);
    expect(plan.steps.map((s) => s.key)).toEqual([`upload:${CID_A}`, `upload:${CID_B}`, 'create', 'mint:1-5', 'nest:5', 'nest:2', 'transfer:1']);
    expect(planSummary(plan)).toEqual({ uploads: 2, extrinsics: 5, bytes: 30 });
    expect(plan.targetIds).toEqual({ 1: 1, 2: 2, 4: 3, 5: 4 });
    expect(stepTitle(plan.steps[4], plan)).toBe('Nest token 4 into token 2');

    const context = { collectionId: 12, files: { [CID_B]: { cid: CID_B, fileUrl: `http://target.test/ipfs/${CID_B}` } }, sourceGateway: 'http://sandbox.test/ipfs' };
    const mint = callOf(plan.steps[3], plan, context)!;
    const tokens = mint.body.tokens as { owner: string; properties: { key: string; value: string }[] }[];
    // Bundle members go to the signer first; a token outside a bundle straight to its owner.
    expect(tokens.map((t) => t.owner)).toEqual([ME, ME, BOB, ME]);
    expect(tokens[0].properties).toEqual([{ key: 'i.c', value: `http://target.test/ipfs/${CID_B}` }]);
    expect(callOf(plan.steps[4], plan, context)!.body).toEqual({ address: ME, parent: { collectionId: 12, tokenId: 2 }, nested: { collectionId: 12, tokenId: 4 } });
    expect(callOf(plan.steps[6], plan, context)!.body).toEqual({ address: ME, collectionId: 12, tokenId: 1, to: BOB });
    expect(() => callOf(plan.steps[3], plan, { ...context, collectionId: null })).toThrow(/not created/);
  });

  it('splits mints at the API bound of tokens per call and keeps transfers on until the end', () => {
    const tokens = Array.from({ length: 250 }, (_, i) => ({ tokenId: i + 1, owner: ME, properties: [], parent: null }));
    const plan = buildPlan(sourceOf({ tokens, properties: [], limits: { transfersEnabled: false } }), ME, []);
    const mints = plan.steps.filter((s) => s.kind === 'mint');
    expect(mints.map((s) => (s.kind === 'mint' ? [s.tokenIds.length, s.firstTarget] : []))).toEqual([
      [120, 1],
      [120, 121],
      [10, 241]
    ]);
    expect(plan.steps[plan.steps.length - 1].key).toBe('limits');
    const create = callOf(plan.steps[0], plan, { collectionId: null, files: {}, sourceGateway: null })!;
    expect(create.body.limits).toBeUndefined();
  });

  it('names what it cannot copy: a missing file, a binary value, the sponsor', () => {
    const plan = buildPlan(
      sourceOf({ sponsor: BOB, properties: [{ key: 'royalties', value: '\ufffd', valueHex: '0x01ff' }, { key: 'coverPicture.ipfsCid', value: CID_A }], tokens: [] }),
      ME,
      []
    );
    expect(plan.problems).toEqual([`The file ${CID_A} is not in this network's file store: it cannot be uploaded to the target`, 'Binary values cannot be copied as text: collection property “royalties”']);
    expect(plan.notes[0]).toMatch(/sponsor .* is not copied/);
  });
});
