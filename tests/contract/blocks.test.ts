// Block production modes and the pool: manual sealing, grouping of concurrent submissions,
// insufficient balance rejected before inclusion.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, CHARLIE, custodial, http, startTestHost } from './support';

let host: RunningHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

const createBody = (address: string) => ({ address, name: 'Blocks', description: 'modes', tokenPrefix: 'BLK' });

describe('block modes', () => {
  it('manual mode keeps submissions Ready until a block is sealed', async () => {
    host = await startTestHost({ blockMode: { kind: 'manual' } });
    const res = await http(host, 'POST', '/collections?use=SubmitWatch', createBody(ALICE), { authorization: 'Seed //Alice' });
    expect(res.status).toBe(201);
    const waiting = await http(host, 'GET', `/extrinsic/status?hash=${res.body.hash}`);
    expect(waiting.body).toMatchObject({ status: 'Ready', isCompleted: false, isError: false });
    expect((await http(host, 'GET', '/common/nonce?address=' + ALICE)).body.nonce).toBe(1);
    const block = await host.ledger.sealBlock();
    expect(block?.number).toBe(1);
    const done = await http(host, 'GET', `/extrinsic/status?hash=${res.body.hash}`);
    expect(done.body).toMatchObject({ status: 'InBlock', isCompleted: true, parsed: { collectionId: 1 }, block: { header: { number: 1 } } });
  });

  it('instant mode groups what arrives together into one block', async () => {
    host = await startTestHost();
    const signers: [string, string][] = [['//Alice', ALICE], ['//Bob', BOB], ['//Charlie', CHARLIE]];
    const results = await Promise.all(signers.map(([uri, address]) => custodial(host!, 'POST', '/collections', createBody(address), uri)));
    for (const r of results) expect(r.body.isError).toBe(false);
    const ids = results.map((r) => r.body.parsed.collectionId).sort();
    expect(ids).toEqual([1, 2, 3]);
    const blocks = new Set<number>();
    for (const r of results) blocks.add((await http(host, 'GET', `/extrinsic/status?hash=${r.body.hash}`)).body.block.header.number);
    expect(blocks.size).toBeLessThan(3);
  });

  it('rejects before inclusion an account that cannot pay the fee, charging nothing', async () => {
    host = await startTestHost();
    const poor = '5CVMZoNZmsUV7xYp4gLB1GrRJm8RNw8ffwEDAfnrtev1azJn'; // //Opalite//fresh, never funded
    const res = await http(host, 'POST', '/collections?use=SubmitWatch', createBody(poor), { authorization: 'Seed //Opalite//fresh' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'SubmitExtrinsicError', message: expect.stringMatching(/Inability to pay some fees/) });
    expect((await http(host, 'GET', `/common/nonce?address=${poor}`)).body.nonce).toBe(0);
  });
});
