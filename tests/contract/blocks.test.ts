// Block production modes and the pool: manual sealing, grouping of concurrent submissions,
// insufficient balance rejected before inclusion, and what a restart of the SQLite-backed host
// keeps (blocks, waiting extrinsics with their statuses).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, CHARLIE, custodial, http, startTestHost } from './support';

const dir = mkdtempSync(join(tmpdir(), 'opalite-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it('instant mode puts each of concurrent submissions in a block before answering', async () => {
    host = await startTestHost();
    const signers: [string, string][] = [['//Alice', ALICE], ['//Bob', BOB], ['//Charlie', CHARLIE]];
    const results = await Promise.all(signers.map(([uri, address]) => custodial(host!, 'POST', '/collections', createBody(address), uri)));
    for (const r of results) expect(r.body).toMatchObject({ isCompleted: true, isError: false });
    expect(results.map((r) => r.body.parsed.collectionId).sort()).toEqual([1, 2, 3]);
    const head = (await http(host, 'GET', '/dev/status')).body.head.number;
    for (const r of results) {
      const status = (await http(host, 'GET', `/extrinsic/status?hash=${r.body.hash}`)).body;
      expect(status.status).toBe('InBlock');
      expect(status.block.header.number).toBeGreaterThanOrEqual(1);
      expect(status.block.header.number).toBeLessThanOrEqual(head);
    }
  });

  it('a block sealed by hand holds everything that waited (manual mode)', async () => {
    host = await startTestHost({ blockMode: { kind: 'manual' } });
    const signers: [string, string][] = [['//Alice', ALICE], ['//Bob', BOB], ['//Charlie', CHARLIE]];
    const submitted = await Promise.all(signers.map(([uri, address]) => http(host!, 'POST', '/collections?use=Submit', createBody(address), { authorization: `Seed ${uri}` })));
    const sealed = await http(host, 'POST', '/dev/blocks/seal', {});
    expect(sealed.body.block.number).toBe(1);
    expect(sealed.body.block.extrinsics.length).toBe(3);
    for (const s of submitted) expect((await http(host, 'GET', `/extrinsic/status?hash=${s.body.hash}`)).body.block.header.number).toBe(1);
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

describe('restart on the same database', () => {
  it('keeps every block, and the head, nonces and balances they made', async () => {
    const dataFile = join(dir, 'blocks.db');
    host = await startTestHost({ dataFile });
    const created = await custodial(host, 'POST', '/collections', createBody(ALICE));
    expect(created.body.isError).toBe(false);
    const sent = await custodial(host, 'POST', '/balance/transfer', { address: ALICE, destination: CHARLIE, amount: '3' });
    expect(sent.body.isError).toBe(false);
    const before = {
      head: (await http(host, 'GET', '/dev/status')).body.head,
      nonce: (await http(host, 'GET', `/common/nonce?address=${ALICE}`)).body.nonce,
      charlie: (await http(host, 'GET', `/balance?address=${CHARLIE}`)).body.freeBalance.raw
    };
    await host.stop();

    host = await startTestHost({ dataFile });
    expect((await http(host, 'GET', '/dev/status')).body.head).toEqual(before.head);
    expect((await http(host, 'GET', `/common/nonce?address=${ALICE}`)).body.nonce).toBe(before.nonce);
    expect((await http(host, 'GET', `/balance?address=${CHARLIE}`)).body.freeBalance.raw).toBe(before.charlie);
    expect((await http(host, 'GET', `/extrinsic/status?hash=${sent.body.hash}`)).body).toMatchObject({ status: 'InBlock', isCompleted: true });
    // The restarted host keeps writing on the same chain.
    expect((await custodial(host, 'POST', '/collections', createBody(ALICE))).body.parsed.collectionId).toBe(2);
  });

  it('a waiting extrinsic (manual blocks) is still Ready after a restart, never 404, and is included after it', async () => {
    const dataFile = join(dir, 'pool.db');
    host = await startTestHost({ dataFile, blockMode: { kind: 'manual' } });
    const res = await http(host, 'POST', '/collections?use=Submit', createBody(ALICE), { authorization: 'Seed //Alice' });
    expect(res.status).toBe(201);
    await host.stop();

    host = await startTestHost({ dataFile, blockMode: { kind: 'manual' } });
    expect((await http(host, 'GET', `/extrinsic/status?hash=${res.body.hash}`)).body).toMatchObject({ status: 'Ready', isCompleted: false });
    expect((await http(host, 'GET', `/common/nonce?address=${ALICE}`)).body.nonce).toBe(1);
    const sealed = await http(host, 'POST', '/dev/blocks/seal', {});
    expect(sealed.status).toBe(201);
    expect((await http(host, 'GET', `/extrinsic/status?hash=${res.body.hash}`)).body).toMatchObject({ status: 'InBlock', isCompleted: true, parsed: { collectionId: 1 } });
  });
});
