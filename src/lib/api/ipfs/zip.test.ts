// Reading ZIP archives: archives made by Info-ZIP (tests/unit/fixtures/ipfs/, see its README) and
// by fflate, and archives with their headers altered to lie: every refusal comes before the data
// grows past the budget.
import { zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PNG_1X1 as PNG, README_TEXT as README, readFixture } from '../../../../tests/unit/fixtures/ipfs/reference';
import { readZip, type ZipEntry, type ZipLimits } from './zip';

const MiB = 1024 * 1024;
const LIMITS: ZipLimits = { maxFileBytes: 2 * MiB, maxTotalBytes: 4 * MiB, maxEntries: 10 };
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const utf8 = (s: string) => new TextEncoder().encode(s);

function summary(entries: ZipEntry[]) {
  return entries.map((e) => (e.kind === 'file' ? { path: e.path, text: e.path.endsWith('.png') ? e.bytes.length : text(e.bytes) } : { path: e.path, folder: true }));
}

/** Where the first central directory entry of an archive without a comment starts. */
const centralAt = (zip: Uint8Array) => new DataView(zip.buffer, zip.byteOffset).getUint32(zip.length - 22 + 16, true);

/** A copy of `zip` with one little-endian field of its first central directory entry set. */
function withCentralField(zip: Uint8Array, offset: number, value: number, bytes: 2 | 4): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  if (bytes === 2) view.setUint16(centralAt(copy) + offset, value, true);
  else view.setUint32(centralAt(copy) + offset, value, true);
  return copy;
}

const refusal = (zip: Uint8Array, limits = LIMITS) => {
  try {
    readZip(zip, limits);
  } catch (e) {
    return e as { status: number; errorName: string; message: string };
  }
  throw new Error('the archive was read');
};

describe('archives made by Info-ZIP', () => {
  it('reads files, folders and deflated entries, with their paths', () => {
    const entries = readZip(readFixture('nested.zip'), LIMITS);
    expect(summary(entries)).toEqual([
      { path: 'punk-1.png', text: PNG.length },
      { path: 'docs', folder: true },
      { path: 'docs/readme.txt', text: README },
      { path: 'empty', folder: true }
    ]);
    expect((entries[0] as { bytes: Uint8Array }).bytes).toEqual(PNG);
  });

  it('reads an archive written as a stream (sizes only in data descriptors)', () => {
    const entries = readZip(readFixture('streamed.zip'), LIMITS);
    expect(summary(entries)).toEqual([
      { path: 'punk-1.png', text: PNG.length },
      { path: 'docs', folder: true },
      { path: 'docs/readme.txt', text: README }
    ]);
  });
});

describe('bounds', () => {
  it('refuses an archive declaring more than the total budget before inflating anything (413)', () => {
    // 8 MiB of zeros deflate to a few KiB: the central directory says so, and that is enough.
    const zip = zipSync({ 'a.bin': new Uint8Array(1.5 * MiB), 'b.bin': new Uint8Array(1.5 * MiB), 'c.bin': new Uint8Array(1.5 * MiB) });
    expect(zip.length).toBeLessThan(20_000);
    const error = refusal(zip);
    expect(error).toMatchObject({ status: 413, errorName: 'PayloadTooLargeError' });
    expect(error.message).toMatch(/archive unpacked is larger than 4 MiB/);
  });

  it('refuses one entry above the file limit (413)', () => {
    expect(refusal(zipSync({ 'big.bin': new Uint8Array(2 * MiB + 1) }))).toMatchObject({ status: 413 });
  });

  it('stops inflating an entry that unpacks to more than it declares (a lying zip bomb)', () => {
    // 1 MiB of zeros, declared as 1000 bytes: inflation stops once the output passes 1000 bytes.
    const zip = withCentralField(zipSync({ 'bomb.bin': new Uint8Array(MiB) }), 24, 1000, 4);
    const error = refusal(zip);
    expect(error).toMatchObject({ status: 400, errorName: 'ValidationError' });
    expect(error.message).toMatch(/unpacks to more than its declared 1000 bytes/);
  });

  it('refuses more entries than the limit, from the count alone', () => {
    const many: Zippable = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, utf8('x')]));
    expect(refusal(zipSync(many)).message).toMatch(/11 entries; at most 10/);
  });
});

describe('entries refused', () => {
  it.each([
    ['../evil.txt', /not a relative path/],
    ['/etc/passwd', /not a relative path/],
    ['a//b.txt', /not a relative path/],
    ['a\\b.txt', /backslash/],
    [`${'n'.repeat(256)}.txt`, /name longer than 255 bytes/],
    [Array.from({ length: 33 }, () => 'd').join('/'), /deeper than 32 folders/]
  ])('a path like %s', (name, message) => {
    const error = refusal(zipSync({ [name]: utf8('x') }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
  });

  it('a symbolic link', () => {
    const zip = zipSync({ link: [utf8('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }] });
    expect(refusal(zip).message).toMatch(/symbolic link/);
  });

  it('encrypted entries, other compression methods, and ZIP64', () => {
    const zip = zipSync({ 'a.txt': utf8('hello hello hello hello') });
    expect(refusal(withCentralField(zip, 8, 1, 2)).message).toMatch(/encrypted/);
    expect(refusal(withCentralField(zip, 10, 12, 2)).message).toMatch(/compression method 12/);
    expect(refusal(withCentralField(zip, 24, 0xffffffff, 4)).message).toMatch(/ZIP64/);
  });

  it('a damaged entry (CRC-32), truncated data, and files that are not archives', () => {
    const zip = zipSync({ 'a.txt': utf8('hello hello hello hello') });
    expect(refusal(withCentralField(zip, 16, 0x12345678, 4)).message).toMatch(/CRC-32/);
    expect(refusal(withCentralField(zip, 42, 5, 4)).message).toMatch(/no local header/);
    expect(refusal(zip.subarray(0, zip.length - 5)).message).toMatch(/end-of-central-directory/);
    expect(refusal(utf8('just text')).status).toBe(400);
    expect(refusal(new Uint8Array(0)).status).toBe(400);
  });

  it('reads an empty archive as no entries', () => {
    expect(readZip(zipSync({}), LIMITS)).toEqual([]);
  });
});
