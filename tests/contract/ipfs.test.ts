// The real @unique-nft/sdk 0.7.7 `ipfs` section against the Node host: uploadFile, uploadFiles,
// addFiles and uploadZip, unchanged, with the real service's paths (`<base>/ipfs/...`), bodies
// (multipart `file` / `files` / `cid`), answers (`{cid, fileUrl}`) and errors (ApiError from the
// envelope). CIDs are those `ipfs add` gives with its default settings.
import type Sdk from '@unique-nft/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { NESTED_ZIP_ENTRIES, NEVER_STORED, PNG_1X1, README_TEXT, kuboRandomBytes, readFixture, referenceFile, referenceFolder } from '../unit/fixtures/ipfs/reference';
import { sdkFor, startTestHost } from './support';

let host: RunningHost;
let sdk: Sdk;
let origin: string;

beforeAll(async () => {
  host = await startTestHost();
  sdk = sdkFor(host);
  origin = new URL(host.url).origin;
});
afterAll(() => host?.stop());

const utf8 = (s: string) => Buffer.from(s);

async function served(url: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('ipfs.uploadFile', () => {
  it('answers the CID `ipfs add` gives (kubo SmallFileCID) and the file is at fileUrl', async () => {
    const answer = await sdk.ipfs.uploadFile({ file: utf8('hello world') });
    expect(answer).toEqual({ cid: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD', fileUrl: `${origin}/ipfs/Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD` });
    const file = await served(answer.fileUrl!);
    expect(file.status).toBe(200);
    expect(Buffer.from(file.bytes).toString()).toBe('hello world');
  });

  it('gives a 5 MiB file its chunked CID (20 leaves of 256 KiB)', async () => {
    const bytes = kuboRandomBytes(5 * 1024 * 1024, 'v0-seed');
    const answer = await sdk.ipfs.uploadFile({ file: Buffer.from(bytes) });
    expect(answer.cid).toBe('QmR6WdHaReoYUZh5N6ifgnqDnbeb4GwZFUckr1dxwLkjft'); // pinned in src/lib/api/ipfs/unixfs.test.ts
    // Compared as buffers: a deep equality of 5 MiB element by element takes half a minute.
    expect(Buffer.from((await served(answer.fileUrl!)).bytes).equals(bytes)).toBe(true);
  });
});

describe('ipfs.uploadFiles and ipfs.addFiles', () => {
  it('stores several files in one folder, each at fileUrl/<name>', async () => {
    const answer = await sdk.ipfs.uploadFiles({
      files: [
        { content: utf8('apple'), name: 'a.txt' },
        { content: Buffer.from(PNG_1X1), name: 'dot.png' }
      ]
    });
    const folder = await referenceFolder([
      { path: 'a.txt', content: utf8('apple') },
      { path: 'dot.png', content: PNG_1X1 }
    ]);
    expect(answer).toEqual({ cid: folder, fileUrl: `${origin}/ipfs/${folder}` });
    const png = await served(`${answer.fileUrl}/dot.png`);
    expect([png.status, png.type]).toEqual([200, 'image/png']);
    expect(png.bytes).toEqual(PNG_1X1);
    // Each file has its own CID as well.
    expect(Buffer.from((await served(`${origin}/ipfs/${await referenceFile(utf8('apple'))}`)).bytes).toString()).toBe('apple');
  });

  it('adds files to that folder: a new folder CID, the old one unchanged', async () => {
    const first = await sdk.ipfs.uploadFiles({ files: [{ content: utf8('one'), name: 'one.txt' }] });
    const answer = await sdk.ipfs.addFiles({ cid: first.cid, files: [{ content: utf8('two'), name: 'two.txt' }] });
    const folder = await referenceFolder([
      { path: 'one.txt', content: utf8('one') },
      { path: 'two.txt', content: utf8('two') }
    ]);
    expect(answer).toEqual({ cid: folder, fileUrl: `${origin}/ipfs/${folder}` });
    expect(Buffer.from((await served(`${answer.fileUrl}/two.txt`)).bytes).toString()).toBe('two');
    expect((await served(`${first.fileUrl}/two.txt`)).status).toBe(404);
  });

  it('takes files of more than 1 MiB in all', async () => {
    const big = kuboRandomBytes(1536 * 1024, 'chunk-v0-seed');
    const answer = await sdk.ipfs.uploadFiles({ files: [{ content: Buffer.from(big), name: 'big.bin' }] });
    expect(answer.cid).toBe(await referenceFolder([{ path: 'big.bin', content: big }]));
  });

  it('rejects with the service errors: an unknown folder (NotFoundError), a file for a folder, one name twice', async () => {
    const files = [{ content: utf8('x'), name: 'x.txt' }];
    await expect(sdk.ipfs.addFiles({ cid: NEVER_STORED, files })).rejects.toMatchObject({ name: 'NotFoundError', code: 'UN01008' });
    const file = await sdk.ipfs.uploadFile({ file: utf8('plain') });
    await expect(sdk.ipfs.addFiles({ cid: file.cid, files })).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/is a file, not a folder/) });
    const twice = [{ content: utf8('x'), name: 'same.txt' }, { content: utf8('y'), name: 'same.txt' }];
    await expect(sdk.ipfs.uploadFiles({ files: twice })).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/twice/) });
  });
});

describe('ipfs.uploadZip', () => {
  it("stores the archive's files under one folder CID", async () => {
    const answer = await sdk.ipfs.uploadZip({ file: Buffer.from(readFixture('nested.zip')) });
    const folder = await referenceFolder(NESTED_ZIP_ENTRIES);
    expect(answer).toEqual({ cid: folder, fileUrl: `${origin}/ipfs/${folder}` });
    const readme = await served(`${answer.fileUrl}/docs/readme.txt`);
    expect([readme.status, readme.type, Buffer.from(readme.bytes).toString()]).toEqual([200, 'text/plain', README_TEXT]);
  });

  it('rejects a file that is not an archive with a ValidationError', async () => {
    await expect(sdk.ipfs.uploadZip({ file: utf8('not a zip') })).rejects.toMatchObject({ name: 'ValidationError', code: 'UN01004' });
  });
});
