// A ledger that travels whole, over HTTP: /dev/export?files=1 of one Node host, imported into a
// fresh one, serves the same image bytes by CID; a damaged archive changes neither the ledger nor
// the files; the plain JSON export is unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { http, startTestHost } from './support';

let source: RunningHost;
let target: RunningHost;
const image = Uint8Array.from({ length: 40_000 }, (_, i) => (i * 31 + (i >> 8)) & 0xff);

async function upload(host: RunningHost, bytes: Uint8Array, name: string, type: string): Promise<{ cid: string; fileUrl: string }> {
  const form = new FormData();
  form.set('file', new Blob([bytes as BlobPart], { type }), name);
  const res = await fetch(`${host.url}/ipfs/upload-file`, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return res.json();
}

const head = async (host: RunningHost) => (await http(host, 'GET', '/dev/status')).body.head;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestHost(), startTestHost()]);
});
afterAll(async () => {
  await Promise.all([source?.stop(), target?.stop()]);
});

describe('/dev/export?files=1 and /dev/import of the archive', () => {
  it('carries the uploaded files: the fresh host serves the same bytes by CID', async () => {
    const { cid } = await upload(source, image, 'cover.png', 'image/png');
    expect((await fetch(`${new URL(target.url).origin}/ipfs/${cid}`)).status).toBe(404);

    const size = await http(source, 'GET', '/dev/export/size');
    expect(size.status).toBe(200);
    expect(size.body.archive).toMatchObject({ files: 1, fileBytes: image.length, refused: null });

    const res = await fetch(`${source.url}/dev/export?files=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="opalite-.*\.zip"/);
    const zip = new Uint8Array(await res.arrayBuffer());
    expect(zip.byteLength).toBe(size.body.archive.bytes);
    expect(Number(res.headers.get('content-length'))).toBe(zip.byteLength);

    const imported = await fetch(`${target.url}/dev/import`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: zip as BodyInit });
    expect(imported.status).toBe(201);
    expect((await imported.json()).genesisHash).toBe((await http(source, 'GET', '/dev/status')).body.genesisHash);

    const served = await fetch(`${new URL(target.url).origin}/ipfs/${cid}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(image);
  });

  it('takes the archive as the multipart field `file` too', async () => {
    const zip = await (await fetch(`${source.url}/dev/export?files=1`)).blob();
    const form = new FormData();
    form.set('file', zip, 'ledger.zip');
    expect((await fetch(`${target.url}/dev/import`, { method: 'POST', body: form })).status).toBe(201);
  });

  it('a damaged archive changes neither the ledger nor the files', async () => {
    const other = Uint8Array.from({ length: 5000 }, (_, i) => (i * 13) & 0xff);
    const { cid } = await upload(source, other, 'other.png', 'image/png');
    const zip = new Uint8Array(await (await fetch(`${source.url}/dev/export?files=1`)).arrayBuffer());
    await http(target, 'POST', '/dev/reset', {});
    const before = await head(target);
    // The last file's bytes end just before the first central directory header.
    const central = Buffer.from(zip).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const damaged = zip.slice();
    damaged[central - 16 - 10] ^= 0x01;
    const res = await fetch(`${target.url}/dev/import`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: damaged as BodyInit });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/CRC-32|CID/) });
    expect(await head(target)).toEqual(before);
    expect((await fetch(`${new URL(target.url).origin}/ipfs/${cid}`)).status).toBe(404);
  });

  it('without `files`, the export is the plain JSON it always was, and imports as before', async () => {
    const res = await fetch(`${source.url}/dev/export`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(JSON.parse(text).format).toBe('opalite-ledger');
    expect((await http(target, 'POST', '/dev/import', text)).status).toBe(201);
    expect((await http(source, 'GET', '/dev/export?files=yes')).status).toBe(400);
  });
});
