// A full disk, simulated by capping the database (SQLite's max_page_count, through the store's
// setSizeLimit): the Node host answers 507 to writes, keeps serving reads, and takes writes again
// once space is freed. Over real HTTP.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../server/host';
import { tempDirectory } from './child-host';
import { exportedLedger, ledgerViolations } from './invariants';
import { devSigners, request, signPayload, type Answer, type Signer } from './signed-writes';

/** A write to a full disk must be answered; this long without an answer counts as a hang. */
const FULL_DISK_ANSWER_MS = 8_000;

const temp = tempDirectory('opalite-disk-full-');
let host: RunningHost;
let signers: Signer[];

beforeAll(async () => {
  host = await startHost({ port: 0, dataFile: join(temp.dir, 'ledger.sqlite'), log: () => {}, verifyThreads: 0 });
  signers = await devSigners(['//Alice', '//Bob']);
});
afterAll(async () => {
  await host?.stop();
  temp.remove();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => request(`${host.url}${path}`, 'POST', body, headers, fetch, FULL_DISK_ANSWER_MS);
const custodial = (path: string, body: unknown, use = 'Result') => post(`${path}?use=${use}`, body, { authorization: 'Seed //Alice' });
const transfer = (amount = '1') => custodial('/balance/transfer', { address: signers[0].address, destination: signers[1].address, amount });
const get = (path: string) => request(`${host.url}${path}`, 'GET');

async function upload(text: string): Promise<Answer> {
  const form = new FormData();
  form.set('file', new Blob([text], { type: 'text/plain' }), 'note.txt');
  const response = await fetch(`${host.url}/ipfs/upload-file`, { method: 'POST', body: form, signal: AbortSignal.timeout(FULL_DISK_ANSWER_MS) });
  return { status: response.status, json: await response.json() };
}

/** A write the client signed itself: Build (a read), sign, then submit the signed payload. */
async function signedTransfer(): Promise<Answer> {
  const built = await request(`${host.url}/balance/transfer?use=Build`, 'POST', { address: signers[1].address, destination: signers[0].address, amount: '1' });
  expect(built.status).toBe(201);
  return post('/extrinsic/submit', { signerPayloadJSON: built.json.signerPayloadJSON, signature: signPayload(signers[1].pair, built.json.signerPayloadHex) });
}

/** The answer's status and error name, or how it failed to come. */
async function outcome(write: () => Promise<Answer>): Promise<{ status: number | string; name?: string }> {
  try {
    const answer = await write();
    return answer.status === 507 ? { status: 507, name: answer.json?.error?.name } : { status: answer.status };
  } catch (e) {
    return { status: (e as Error).message };
  }
}

describe('a full disk', () => {
  it('answers 507 to writes, keeps serving reads, and resumes writes when space is freed', { timeout: 240_000 }, async () => {
    const collection = await custodial('/collections', { address: signers[0].address, name: 'Before', description: 'written before the disk filled', tokenPrefix: 'FULL' });
    expect(collection.status).toBe(201);
    const collectionId = collection.json.parsed.collectionId;
    const minted = await custodial('/tokens', { address: signers[0].address, collectionId });
    expect(minted.status).toBe(201);
    const tokenId = minted.json.parsed.tokenId;
    const file = await upload('kept before the disk filled');
    expect(file.status).toBe(201);

    // Fill it: cap the file at its size now, then store files until one does not fit.
    host.store.setSizeLimit(statSync(host.store.path).size);
    let filling: Answer | undefined;
    for (let i = 0; i < 200 && !filling; i++) {
      const answer = await upload(`${i} `.repeat(8 * 1024));
      if (answer.status !== 201) filling = answer;
    }
    expect(filling?.status, 'an upload that found the disk full').toBe(507);
    expect(filling!.json.error.name).toBe('StorageFullError');

    // Every kind of write now is answered (never left hanging): 507 with the envelope, or 201 when
    // it still fitted in the pages the file has (max_page_count only stops the file growing).
    const writes = {
      'file upload': await outcome(() => upload('z'.repeat(64 * 1024))),
      'client-signed submit': await outcome(signedTransfer),
      'custodial transfer (use=Submit)': await outcome(() => custodial('/balance/transfer', { address: signers[0].address, destination: signers[1].address, amount: '2' }, 'Submit')),
      'custodial transfer (use=Result)': await outcome(() => transfer()),
      'collection (use=Result)': await outcome(() => custodial('/collections', { address: signers[0].address, name: 'During', description: 'x'.repeat(200), tokenPrefix: 'FULL' }))
    };
    for (const [what, got] of Object.entries(writes)) {
      if (got.status === 201) continue;
      expect.soft({ what, ...got }).toEqual({ what, status: 507, name: 'StorageFullError' });
    }
    expect(writes['file upload']).toEqual({ status: 507, name: 'StorageFullError' });

    // Reads go on.
    const reads = {
      token: await get(`/tokens?collectionId=${collectionId}&tokenId=${tokenId}`),
      collection: await get(`/collections?collectionId=${collectionId}`),
      balance: await get(`/balance?address=${signers[0].address}`),
      status: await get(`/extrinsic/status?hash=${minted.json.hash}`),
      chain: await get('/common/chain-properties')
    };
    for (const [what, answer] of Object.entries(reads)) expect({ what, status: answer.status }).toEqual({ what, status: 200 });
    expect(reads.token.json.tokenId).toBe(tokenId);
    expect(reads.status.json.status).toBe('InBlock');
    const stored = await fetch(file.json.fileUrl);
    expect(stored.status).toBe(200);
    expect(await stored.text()).toBe('kept before the disk filled');

    // Space freed: writes resume, and the ledger is sound.
    host.store.setSizeLimit(undefined);
    const after = await transfer();
    expect.soft(after.status, `first custodial write after space was freed: ${JSON.stringify(after.json)}`).toBe(201);
    expect.soft(after.json.isError).toBe(false);
    expect((await signedTransfer()).status).toBe(201);
    expect((await upload('written after space was freed')).status).toBe(201);
    expect((await transfer()).status).toBe(201);
    expect(ledgerViolations(await exportedLedger(host.url))).toEqual([]);
  });
});
