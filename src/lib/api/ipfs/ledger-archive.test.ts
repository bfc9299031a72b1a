// Ledger archives: what an export streams is what an import unpacks, at the size said before;
// and an archive damaged in any way (a flipped byte, a file under another CID, an entry too big,
// a cut-off end, too many entries, an entry not listed) is refused with a 400 or 413.
import { zipSync, type Zippable } from 'fflate';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { MAX_LEDGER_ARCHIVE_FILES } from '../../limits';
import { ARCHIVE_FORMAT, archiveStream, cidMatches, isZip, planArchive, unpackArchive, type ArchivedFile } from './ledger-archive';
import { buildTree, fileCid } from './unixfs';

const utf8 = (s: string) => new TextEncoder().encode(s);
const LEDGER = JSON.stringify({ format: 'opalite-ledger', version: 1, tables: { blocks: [] } });
const LIMITS = { maxFileBytes: 1024 * 1024 };

const png = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) & 0xff);
const note = utf8('hello world');

async function stored(bytes: Uint8Array, type: string, name: string, cid?: string): Promise<ArchivedFile & { bytes: Uint8Array }> {
  return { cid: cid ?? (await fileCid(bytes)), size: bytes.byteLength, type, name, bytes };
}

/** An archive as /dev/export?files=1 streams it. */
async function exported(files: (ArchivedFile & { bytes: Uint8Array })[], ledger = LEDGER): Promise<{ zip: Uint8Array; size: number }> {
  const plan = planArchive(ledger, files);
  const byCid = new Map(files.map((f) => [f.cid, f.bytes]));
  const zip = new Uint8Array(await new Response(archiveStream(plan, async (cid) => byCid.get(cid)!, Date.UTC(2026, 0, 2))).arrayBuffer());
  return { zip, size: plan.size };
}

/** An archive made by hand (stored entries), for archives an export never writes. */
function handmade(files: ArchivedFile[], entries: Zippable, manifest: unknown = { format: ARCHIVE_FORMAT, version: 1, ledger: 'ledger.json', files }): Uint8Array {
  return zipSync({ 'manifest.json': utf8(JSON.stringify(manifest)), 'ledger.json': utf8(LEDGER), ...entries }, { level: 0 });
}

async function refusal(zip: Uint8Array, limits = LIMITS): Promise<{ status: number; errorName: string; message: string }> {
  try {
    await unpackArchive(zip, limits);
  } catch (e) {
    return e as { status: number; errorName: string; message: string };
  }
  throw new Error('the archive was taken');
}

describe('a ledger archive, written and read back', () => {
  it('holds the ledger JSON unchanged and every file, at exactly the size planned', async () => {
    const rawCid = CID.createV1(raw.code, await sha256.digest(note)).toString(); // a file stored under the first version's bafkrei… id
    const tree = await buildTree([{ kind: 'file', path: 'a.png', bytes: png }]);
    const folder = tree.folders[0];
    const files = [
      await stored(png, 'image/png', 'a.png'),
      await stored(note, 'text/plain', 'note.txt', rawCid),
      await stored(folder.block, 'application/vnd.ipld.dag-pb', '', folder.cid.toString())
    ];
    const { zip, size } = await exported(files);
    expect(isZip(zip)).toBe(true);
    expect(zip.byteLength).toBe(size);
    const back = await unpackArchive(zip, LIMITS);
    expect(back.ledgerText).toBe(LEDGER);
    expect(back.files.map(({ cid, size, type, name }) => ({ cid, size, type, name }))).toEqual(files.map(({ cid, size, type, name }) => ({ cid, size, type, name })));
    expect(back.files.map((f) => f.bytes)).toEqual(files.map((f) => f.bytes));
  });

  it('with no files, still has its manifest and ledger', async () => {
    const { zip, size } = await exported([]);
    expect(zip.byteLength).toBe(size);
    expect(await unpackArchive(zip, LIMITS)).toEqual({ ledgerText: LEDGER, files: [] });
  });

  it('tells a plain JSON export from an archive', () => {
    expect(isZip(utf8(LEDGER))).toBe(false);
    expect(isZip(new Uint8Array(0))).toBe(false);
  });

  it('knows which bytes a CID names', async () => {
    expect(await cidMatches(await fileCid(png), png)).toBe(true);
    expect(await cidMatches(await fileCid(png), note)).toBe(false);
    expect(await cidMatches('not a cid', png)).toBe(false);
  });

  it('refuses to plan more files than an import takes', () => {
    const many = Array.from({ length: MAX_LEDGER_ARCHIVE_FILES + 1 }, (_, i) => ({ cid: `c${i}`, size: 1, type: 'x', name: '' }));
    expect(() => planArchive(LEDGER, many)).toThrow(/at most 10000: export the ledger without files/);
  });
});

describe('a damaged or foreign archive is refused, before anything is stored', () => {
  it('a flipped byte in a file', async () => {
    const file = await stored(png, 'image/png', 'a.png');
    const { zip } = await exported([file]);
    const start = Buffer.from(zip).indexOf(Buffer.from(png.subarray(0, 64))); // the file's stored bytes
    expect(start).toBeGreaterThan(0);
    const at = start + 100;
    const flipped = zip.slice();
    flipped[at] ^= 0xff;
    const e = await refusal(flipped);
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/CRC-32|not the content its CID names/);
  });

  it('a file under a CID that is not its content (renamed, CRC intact)', async () => {
    const otherCid = await fileCid(note);
    const zip = handmade([{ cid: otherCid, size: png.length, type: 'image/png', name: 'a.png' }], { [`files/${otherCid}`]: png });
    const e = await refusal(zip);
    expect(e.status).toBe(400);
    expect(e.message).toContain(`The file ${otherCid} of the ledger archive is not the content its CID names`);
  });

  it('an entry larger than the upload limit, before it is read', async () => {
    const { zip } = await exported([await stored(png, 'image/png', 'a.png')]);
    const e = await refusal(zip, { maxFileBytes: 1000 });
    expect(e.status).toBe(413);
    expect(e.errorName).toBe('PayloadTooLargeError');
  });

  it('an entry that inflates past its declared size (a zip bomb)', async () => {
    const cid = await fileCid(png);
    const zip = zipSync({ 'manifest.json': utf8(JSON.stringify({ format: ARCHIVE_FORMAT, version: 1, ledger: 'ledger.json', files: [] })), 'ledger.json': utf8(LEDGER), [`files/${cid}`]: new Uint8Array(500_000) }, { level: 9 });
    // Declare 1,000 bytes for the third entry in the central directory: the header lies.
    const view = new DataView(zip.buffer);
    let at = view.getUint32(zip.length - 22 + 16, true);
    for (let i = 0; i < 2; i++) at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    view.setUint32(at + 24, 1000, true);
    const e = await refusal(zip);
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/unpacks to more than its declared 1000 bytes/);
  });

  it('a cut-off archive', async () => {
    const { zip } = await exported([await stored(png, 'image/png', 'a.png')]);
    for (const cut of [zip.length - 10, Math.floor(zip.length / 2), 30]) {
      const e = await refusal(zip.subarray(0, cut));
      expect(e.status, `cut at ${cut}`).toBe(400);
      expect(e.message).toMatch(/not a ZIP archive/);
    }
  });

  it('too many entries, counted before any is read', async () => {
    const entries: Zippable = {};
    for (let i = 0; i < MAX_LEDGER_ARCHIVE_FILES + 2; i++) entries[`files/${i}`] = new Uint8Array(0);
    const e = await refusal(handmade([], entries));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/entries; at most 10003 are taken/);
  });

  it('an entry the manifest does not list, and a listed file missing or of another size', async () => {
    const file = await stored(png, 'image/png', 'a.png');
    const listed = { cid: file.cid, size: file.size, type: file.type, name: file.name };
    expect((await refusal(handmade([], { [`files/${file.cid}`]: png }))).message).toContain(`an entry its manifest.json does not list: "files/${file.cid}"`);
    expect((await refusal(handmade([], { 'extra.txt': note }))).message).toContain('"extra.txt"');
    expect((await refusal(handmade([listed], {}))).message).toContain(`lacks the file ${file.cid}`);
    expect((await refusal(handmade([{ ...listed, size: 5 }], { [`files/${file.cid}`]: png }))).message).toContain('its manifest.json says 5');
  });

  it('an archive without a manifest or a ledger, or with a foreign manifest', async () => {
    expect((await refusal(zipSync({ 'ledger.json': utf8(LEDGER) }))).message).toMatch(/no manifest\.json/);
    expect((await refusal(zipSync({ 'manifest.json': utf8(JSON.stringify({ format: ARCHIVE_FORMAT, version: 1, ledger: 'ledger.json', files: [] })) }))).message).toMatch(/no ledger\.json/);
    expect((await refusal(handmade([], {}, { format: 'something-else', version: 1, ledger: 'ledger.json', files: [] }))).message).toMatch(/not an Opalite ledger archive's \(format/);
    expect((await refusal(zipSync({ 'manifest.json': utf8('{'), 'ledger.json': utf8(LEDGER) }))).message).toMatch(/manifest\.json of this archive is not JSON/);
  });
});
