// The IPFS routes through the real REST handler, with a file store in memory: what each upload
// answers and stores, the paths below a folder, and every refusal in the error envelope.
import { zipSync } from 'fflate';
import { CID } from 'multiformats/cid';
import { base58btc } from 'multiformats/bases/base58';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../ledger/chain/ledger';
import { MemoryStore } from '../../ledger/testing/memory-store';
import { createHandler } from '../handler';
import { MAX_FILES_PER_UPLOAD } from '../../limits';
import { NESTED_ZIP_ENTRIES, PNG_1X1, README_TEXT, readFixture, referenceFile as expectedFile, referenceFolder as expectedFolder } from '../../../../tests/unit/fixtures/ipfs/reference';
import { fileServer, ipfsRoutes, type FileStoreLike, type StoredFile } from './ipfs';

const ORIGIN = 'http://127.0.0.1';
const BASE = `${ORIGIN}/sandbox/v1`;
const utf8 = (s: string) => new TextEncoder().encode(s);

async function openIpfs(maxUploadBytes = 1024 * 1024) {
  const stored = new Map<string, StoredFile>();
  const files: FileStoreLike = {
    putFile: async ({ cid, bytes, type, name }) => void stored.set(cid, { cid, bytes, type, name, size: bytes.byteLength }),
    getFile: async (cid) => stored.get(cid)
  };
  const handler = createHandler({ ledger: await Ledger.open({ store: new MemoryStore() }), extraRoutes: ipfsRoutes({ files }), limits: { maxUploadBytes } });
  const serve = fileServer(files);

  async function send(method: string, path: string, body: FormData | string, headers: Record<string, string> = {}) {
    const response = await handler(new Request(`${BASE}${path}`, { method, body, headers }));
    const text = await response.text();
    return { status: response.status, json: JSON.parse(text) };
  }

  async function get(path: string, init: RequestInit = {}) {
    const response = await serve(new Request(`${ORIGIN}${path}`, init));
    if (!response) throw new Error(`${path} is not a file path`);
    return response;
  }

  return { stored, files, send, get };
}

function form(fields: Record<string, string | [Uint8Array | string, string, string?][]>): FormData {
  const data = new FormData();
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(field, value);
    else for (const [bytes, name, type] of value) data.append(field, new Blob([bytes as BlobPart], { type: type ?? '' }), name);
  }
  return data;
}

describe('upload-file', () => {
  it('answers the CID `ipfs add` gives the file and serves it under every spelling of it', async () => {
    const ipfs = await openIpfs();
    const answer = await ipfs.send('POST', '/ipfs/upload-file', form({ file: [[utf8('hello world'), 'file', 'text/plain']] }));
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ cid: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD', fileUrl: `${ORIGIN}/ipfs/Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD` });
    const v1 = CID.parse(answer.json.cid).toV1().toString();
    expect(v1).toMatch(/^bafybei/);
    for (const spelling of [answer.json.cid, v1]) {
      const file = await ipfs.get(`/ipfs/${spelling}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/plain');
      expect(await file.text()).toBe('hello world');
    }
  });

  it('still serves files stored under their earlier CIDv1 raw ids (`bafkrei…`), in either spelling', async () => {
    const ipfs = await openIpfs();
    const old = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e';
    await ipfs.files.putFile({ cid: old, bytes: utf8('hello world'), type: 'text/plain', name: 'old.txt' });
    for (const spelling of [old, CID.parse(old).toString(base58btc)]) {
      const file = await ipfs.get(`/ipfs/${spelling}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('etag')).toBe(`"${old}"`);
      expect(await file.text()).toBe('hello world');
    }
  });
});

describe('upload-files', () => {
  const files = form({ files: [[utf8('apple'), 'a.png', 'image/png'], [utf8('banana'), 'b.txt', 'text/plain']] });

  it('stores the files in one new folder, as `ipfs add -w` does, each file under its own CID too', async () => {
    const ipfs = await openIpfs();
    const answer = await ipfs.send('POST', '/ipfs/upload-files', files);
    expect(answer.status).toBe(201);
    const folder = await expectedFolder([
      { path: 'a.png', content: utf8('apple') },
      { path: 'b.txt', content: utf8('banana') }
    ]);
    expect(answer.json).toEqual({ cid: folder, fileUrl: `${ORIGIN}/ipfs/${folder}` });

    const a = await ipfs.get(`/ipfs/${folder}/a.png`);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('image/png');
    expect(await a.text()).toBe('apple');
    const appleCid = await expectedFile(utf8('apple'));
    expect(await (await ipfs.get(`/ipfs/${appleCid}`)).text()).toBe('apple');
    expect((await ipfs.get(`/ipfs/${CID.parse(folder).toV1()}/b.txt`)).status).toBe(200);

    const listing = await ipfs.get(`/ipfs/${folder}/`);
    expect(listing.headers.get('content-type')).toBe('application/json');
    expect(listing.headers.get('content-security-policy')).toBe('sandbox');
    const body = (await listing.json()) as { cid: string; links: { name: string; cid: string; size: number }[] };
    expect(body.cid).toBe(folder);
    expect(body.links.map((l) => [l.name, l.cid])).toEqual([
      ['a.png', appleCid],
      ['b.txt', await expectedFile(utf8('banana'))]
    ]);
    expect((await ipfs.get(`/ipfs/${folder}/c.txt`)).status).toBe(404);
    expect((await ipfs.get(`/ipfs/${folder}/a.png/deeper`)).status).toBe(404);
    expect((await ipfs.get(`/ipfs/${folder}/a.png`, { method: 'HEAD' })).headers.get('content-length')).toBe('5');
  });

  it('keeps folders of nested names', async () => {
    const ipfs = await openIpfs();
    const answer = await ipfs.send('POST', '/ipfs/upload-files', form({ files: [[utf8('x'), 'dir/inner.txt']] }));
    expect(answer.json.cid).toBe(await expectedFolder([{ path: 'dir/inner.txt', content: utf8('x') }]));
    expect(await (await ipfs.get(`/ipfs/${answer.json.cid}/dir/inner.txt`)).text()).toBe('x');
  });

  it.each([
    ['no files', form({ other: 'x' }), /no files in the field "files"/],
    ['text instead of a file', form({ files: 'x' }), /must carry files/],
    ['a name leaving the folder', form({ files: [[utf8('x'), '../x.txt']] }), /not a relative path/],
    ['one name twice', form({ files: [[utf8('x'), 'same.txt'], [utf8('y'), 'same.txt']] }), /twice/],
    ['a file where a folder must be', form({ files: [[utf8('x'), 'a'], [utf8('y'), 'a/b']] }), /"a" is a file/],
    ['too many files', form({ files: Array.from({ length: MAX_FILES_PER_UPLOAD + 1 }, (_, i): [Uint8Array, string] => [utf8('x'), `f${i}`]) }), /At most 100 files/],
    ['too many parts', form({ files: Array.from({ length: MAX_FILES_PER_UPLOAD + 20 }, (_, i): [Uint8Array, string] => [utf8('x'), `f${i}`]) }), /more than 108 parts/]
  ])('refuses %s (400)', async (_what, body, message) => {
    const ipfs = await openIpfs();
    const answer = await ipfs.send('POST', '/ipfs/upload-files', body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ name: 'ValidationError', code: 'UN01004' });
    expect(answer.json.error.message).toMatch(message);
    expect(ipfs.stored.size).toBe(0);
  });

  it('refuses files above the upload limit together (413) and a JSON body (400)', async () => {
    const ipfs = await openIpfs(1000);
    const big = await ipfs.send('POST', '/ipfs/upload-files', form({ files: [[new Uint8Array(600), 'a'], [new Uint8Array(600 + 64 * 1024), 'b']] }));
    expect(big.status).toBe(413);
    expect(big.json.error.name).toBe('PayloadTooLargeError');
    const json = await ipfs.send('POST', '/ipfs/upload-files', '{}', { 'content-type': 'application/json' });
    expect(json.status).toBe(400);
  });

  it('refuses a multipart body it cannot read (400), with or without a boundary', async () => {
    const ipfs = await openIpfs();
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=xyz']) {
      for (const route of [['POST', '/ipfs/upload-files'], ['PATCH', '/ipfs/add-files'], ['POST', '/ipfs/upload-zip']]) {
        const answer = await ipfs.send(route[0], route[1], '--xyz\r\ngarbage', { 'content-type': type });
        expect([answer.status, answer.json.error.message]).toEqual([400, 'The multipart body could not be read']);
      }
    }
  });
});

describe('add-files', () => {
  async function withFolder() {
    const ipfs = await openIpfs();
    const first = await ipfs.send('POST', '/ipfs/upload-files', form({ files: [[utf8('apple'), 'a.png', 'image/png'], [utf8('banana'), 'b.txt']] }));
    return { ipfs, folder: first.json.cid as string };
  }

  it('answers the folder with the files added (200): the folder `ipfs add -w` makes of all of them', async () => {
    const { ipfs, folder } = await withFolder();
    const answer = await ipfs.send('PATCH', '/ipfs/add-files', form({ cid: folder, files: [[utf8('cherry'), 'c.txt'], [utf8('APPLE'), 'a.png', 'image/png']] }));
    expect(answer.status).toBe(200);
    const expected = await expectedFolder([
      { path: 'a.png', content: utf8('APPLE') },
      { path: 'b.txt', content: utf8('banana') },
      { path: 'c.txt', content: utf8('cherry') }
    ]);
    expect(answer.json).toEqual({ cid: expected, fileUrl: `${ORIGIN}/ipfs/${expected}` });
    expect(await (await ipfs.get(`/ipfs/${expected}/a.png`)).text()).toBe('APPLE');
    expect(await (await ipfs.get(`/ipfs/${expected}/b.txt`)).text()).toBe('banana');
    // The first folder is content-addressed: unchanged.
    expect(await (await ipfs.get(`/ipfs/${folder}/a.png`)).text()).toBe('apple');
  });

  it('adds into a folder of the folder, keeping the rest of it', async () => {
    const ipfs = await openIpfs();
    const zip = zipSync({ 'sub/one.txt': utf8('1'), 'sub/two.txt': utf8('2'), 'top.txt': utf8('t') });
    const first = await ipfs.send('POST', '/ipfs/upload-zip', form({ file: [[zip, 'file']] }));
    const answer = await ipfs.send('PATCH', '/ipfs/add-files', form({ cid: first.json.cid, files: [[utf8('3'), 'sub/three.txt']] }));
    expect(answer.status).toBe(200);
    expect(answer.json.cid).toBe(
      await expectedFolder([
        { path: 'sub/one.txt', content: utf8('1') },
        { path: 'sub/two.txt', content: utf8('2') },
        { path: 'sub/three.txt', content: utf8('3') },
        { path: 'top.txt', content: utf8('t') }
      ])
    );
  });

  it('refuses a folder not stored here (404), a file (400), no cid, a file inside a file, and a JSON body', async () => {
    const { ipfs, folder } = await withFolder();
    const files: [Uint8Array, string][] = [[utf8('x'), 'x.txt']];
    const unknown = await ipfs.send('PATCH', '/ipfs/add-files', form({ cid: 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn', files }));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.name).toBe('NotFoundError');
    const apple = await expectedFile(utf8('apple'));
    const file = await ipfs.send('PATCH', '/ipfs/add-files', form({ cid: apple, files }));
    expect([file.status, file.json.error.message]).toEqual([400, expect.stringMatching(/is a file, not a folder/)]);
    expect((await ipfs.send('PATCH', '/ipfs/add-files', form({ files }))).json.error.message).toMatch(/no field "cid"/);
    expect((await ipfs.send('PATCH', '/ipfs/add-files', form({ cid: 'nonsense', files }))).json.error.message).toMatch(/is not a CID/);
    const inside = await ipfs.send('PATCH', '/ipfs/add-files', form({ cid: folder, files: [[utf8('x'), 'a.png/x']] }));
    expect([inside.status, inside.json.error.message]).toEqual([400, expect.stringMatching(/"a.png" in the folder .* is a file/)]);
    const json = await ipfs.send('PATCH', '/ipfs/add-files', JSON.stringify({ cid: folder }), { 'content-type': 'application/json' });
    expect([json.status, json.json.error.message]).toEqual([400, expect.stringMatching(/multipart\/form-data/)]);
  });

  it('takes an upload that only claims to be a folder block as the file it is', async () => {
    const ipfs = await openIpfs();
    const fake = await ipfs.send('POST', '/ipfs/upload-file', form({ file: [[utf8('not a block'), 'f', 'application/vnd.ipld.dag-pb']] }));
    const answer = await ipfs.send('PATCH', '/ipfs/add-files', form({ cid: fake.json.cid, files: [[utf8('x'), 'x.txt']] }));
    expect(answer.json.error.message).toMatch(/is a file, not a folder/);
    expect(await (await ipfs.get(`/ipfs/${fake.json.cid}`)).text()).toBe('not a block');
  });
});

describe('upload-zip', () => {
  it('unpacks an Info-ZIP archive into one folder, as `ipfs add -r -w` of its files', async () => {
    const ipfs = await openIpfs();
    const answer = await ipfs.send('POST', '/ipfs/upload-zip', form({ file: [[readFixture('nested.zip'), 'file']] }));
    expect(answer.status).toBe(201);
    const folder = await expectedFolder(NESTED_ZIP_ENTRIES);
    expect(answer.json).toEqual({ cid: folder, fileUrl: `${ORIGIN}/ipfs/${folder}` });
    const image = await ipfs.get(`/ipfs/${folder}/punk-1.png`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG_1X1);
    const text = await ipfs.get(`/ipfs/${folder}/docs/readme.txt`);
    expect(text.headers.get('content-type')).toBe('text/plain');
    expect(await text.text()).toBe(README_TEXT);
    expect(((await (await ipfs.get(`/ipfs/${folder}/empty`)).json()) as { links: unknown[] }).links).toEqual([]);
  });

  it('refuses a zip bomb (413) before storing anything, and archives it cannot read (400)', async () => {
    const ipfs = await openIpfs();
    // 65 entries of 1 MiB of zeros: 71 KiB on the wire, 65 MiB unpacked.
    const zeros = new Uint8Array(1024 * 1024);
    const bomb = zipSync(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`z${i}.bin`, zeros])), { level: 1 });
    const refused = await ipfs.send('POST', '/ipfs/upload-zip', form({ file: [[bomb, 'file']] }));
    expect(refused.status).toBe(413);
    expect(refused.json.error.message).toMatch(/unpacked is larger than 64 MiB/);
    expect((await ipfs.send('POST', '/ipfs/upload-zip', form({ file: [[utf8('no zip'), 'file']] }))).status).toBe(400);
    const empty = await ipfs.send('POST', '/ipfs/upload-zip', form({ file: [[zipSync({ only: {} }), 'file']] }));
    expect([empty.status, empty.json.error.message]).toEqual([400, 'The archive has no files']);
    expect(ipfs.stored.size).toBe(0);
  });
});

describe('paths', () => {
  it('answers a bad CID with 400, a missing one with 404, and too deep a path with 400', async () => {
    const ipfs = await openIpfs();
    expect((await ipfs.get('/ipfs/nonsense')).status).toBe(400);
    expect((await ipfs.get('/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn/x')).status).toBe(404);
    expect((await ipfs.get(`/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn/${'d/'.repeat(40)}x`)).status).toBe(400);
  });
});
