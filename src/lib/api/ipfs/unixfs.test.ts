// CIDs of files of 1 byte, 256 KiB, 1 MiB and 5 MiB, checked against the CIDs the IPFS project's
// own tests publish for `ipfs add` with its default settings. Source of every reference CID below:
// kubo, test/cli/cid_profiles_test.go (commit 867cdc5d80d88f390f3ee2882ff50e056ffe3aad), profile
// `unixfs-v0-2015` (lines 96-123), which that file's "default" run (no profile given, line 162
// `var defaultProfile = unixfsV02015`) also asserts for a plain `ipfs add`. js-ipfs-unixfs asserts
// the same values in packages/ipfs-unixfs-importer/test/ipip-499-profiles.spec.ts (lines 63-131).
// Their bytes come from kubo's test/cli/testutils/random_deterministic.go
// (DeterministicRandomReaderBytes): the ChaCha20 key stream, key sha256(seed), zero nonce.
import * as dagPb from '@ipld/dag-pb';
import { importer } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { kuboRandomBytes, referenceFolder } from '../../../../tests/unit/fixtures/ipfs/reference';
import { addFile, buildTree, directoryLinks, fileCid, type TreeEntry } from './unixfs';

const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 256 * KiB;

/** kubo's createDeterministicFiles names (test/cli/add_test.go lines 621-661): AlphabetEasy over a 1 MiB stream. */
function kuboFileNames(count: number, length: number, seed: string): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz01234567890-_'; // testutils.AlphabetEasy (test/cli/testutils/strings.go:17)
  const stream = kuboRandomBytes(MiB, seed);
  return Array.from({ length: count }, (_, i) => Array.from(stream.subarray(i * length, (i + 1) * length), (b) => alphabet[b % alphabet.length]).join(''));
}

/** The root node's links of `ipfs add` of these bytes (the importer's own output, blocks kept). */
async function rootLinks(bytes: Uint8Array): Promise<{ cid: CID; links: string[] }> {
  const blocks = new Map<string, Uint8Array>();
  const store = { put: async (cid: CID, block: Uint8Array) => (blocks.set(cid.toString(), block), cid) };
  let root: CID | undefined;
  for await (const entry of importer([{ content: bytes }], store, { profile: 'unixfs-v0-2015' })) root = entry.cid;
  const node = dagPb.decode(blocks.get(root!.toString())!);
  return { cid: root!, links: node.Links.map((l) => l.Hash.toString()) };
}

describe('file CIDs as `ipfs add` gives them (kubo defaults)', () => {
  it('1 byte: the "x" each of the 4096 files of kubo\'s DirBasicCID fixture holds', async () => {
    const oneByte = await fileCid(new Uint8Array([0x78]));
    expect(oneByte).toBe('QmULKig5Fxrs2sC4qt9nNduucXfb92AFYQ6Hi3YRqDmrYC');
    // cid_profiles_test.go:122 DirBasicCID, `ipfs add -r` of 4096 files of "x" named from seed
    // "hamt-unixfs-v0-2015" (lines 111-112, 615-618; add_test.go:621-661). The folder's CID hashes
    // every link, so it matches only if each file's CID is the one above.
    const names = kuboFileNames(4096, 30, 'hamt-unixfs-v0-2015');
    const tree = await buildTree(names.map((path): TreeEntry => ({ kind: 'file', path, bytes: new Uint8Array([0x78]) })));
    expect(tree.root.toString()).toBe('QmX5GtRk3TSSEHtdrykgqm4eqMEn3n2XhfkFAis5fjyZmN');
    const links = directoryLinks(tree.folders.find((f) => f.cid.equals(tree.root))!.block)!;
    expect(links).toHaveLength(4096);
    expect(new Set(links.map((l) => l.cid.toString()))).toEqual(new Set([oneByte]));
  });

  it('256 KiB: FileAtChunkSizeCID (262144 bytes of seed "chunk-v0-seed", line 118)', async () => {
    expect(await fileCid(kuboRandomBytes(CHUNK, 'chunk-v0-seed'))).toBe('QmWmRj3dFDZdb6ABvbmKhEL6TmPbAfBZ1t5BxsEyJrcZhE');
    // One byte more makes two leaves under a root (FileOverChunkSizeCID, line 119).
    expect(await fileCid(kuboRandomBytes(CHUNK + 1, 'chunk-v0-seed'))).toBe('QmYyLxtzZyW22zpoVAtKANLRHpDjZtNeDjQdJrcQNWoRkJ');
  });

  // No published default-settings CID exists for 1 MiB or 5 MiB of bytes this test can make (kubo's
  // 5 MB sharness fixture, t0040-add-and-cat.sh:909, is Go math/rand output). Their leaves are
  // checked instead: a 1 MiB and a 5 MiB prefix of seed "v0-seed" are the first 4 and 20 chunks of
  // FileAtMaxLinksCID (174 × 256 KiB of "v0-seed", line 120), whose root lists every leaf's CID.
  // The roots themselves are pinned as the importer makes them, not independently checked.
  const maxLinks = kuboRandomBytes(174 * CHUNK, 'v0-seed');
  let published: { cid: CID; links: string[] } | undefined;
  const publishedLeaves = async () => (published ??= await rootLinks(maxLinks));

  it('the 174-chunk reference file: FileAtMaxLinksCID (line 120)', async () => {
    const { cid, links } = await publishedLeaves();
    expect(cid.toString()).toBe('QmUbBALi174SnogsUzLpYbD4xPiBSFANF4iztWCsHbMKh2');
    expect(links).toHaveLength(174);
  });

  it('1 MiB: four leaves, each the published one; root pinned', async () => {
    const bytes = maxLinks.subarray(0, MiB);
    const { cid, links } = await rootLinks(bytes);
    expect(links).toEqual((await publishedLeaves()).links.slice(0, 4));
    expect(cid.toString()).toBe(await fileCid(bytes));
    expect(cid.toString()).toBe('Qmf45sTkDUsuhSYCijJ3Siyc9pvTCGHu5W8yvpxwkFgzRu');
  });

  it('5 MiB: twenty leaves, each the published one; root pinned', async () => {
    const bytes = maxLinks.subarray(0, 5 * MiB);
    const { cid, links } = await rootLinks(bytes);
    expect(links).toEqual((await publishedLeaves()).links.slice(0, 20));
    expect(cid.toString()).toBe(await fileCid(bytes));
    expect(cid.toString()).toBe('QmR6WdHaReoYUZh5N6ifgnqDnbeb4GwZFUckr1dxwLkjft');
  });

  it('gives "hello world" the SmallFileCID (line 117), and reports the DAG size a folder link carries', async () => {
    const hello = await addFile(new TextEncoder().encode('hello world'));
    expect(hello.cid.toString()).toBe('Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD');
    expect(hello.size).toBe(19n); // 11 bytes of data in a 19-byte dag-pb node
  });
});

describe('folders', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const files: TreeEntry[] = [
    { kind: 'file', path: 'b.txt', bytes: bytes('bee') },
    { kind: 'file', path: 'a/c.png', bytes: bytes('sea') },
    { kind: 'folder', path: 'empty' }
  ];

  it('builds the folder the importer builds for the same entries, keeping every folder block', async () => {
    const tree = await buildTree(files);
    expect(tree.root.toString()).toBe(await referenceFolder(files.map((e) => (e.kind === 'file' ? { path: e.path, content: e.bytes } : { path: e.path }))));
    expect(tree.root.toString()).toMatch(/^Qm/);
    expect(tree.files.get('a/c.png')!.toString()).toBe(await fileCid(bytes('sea')));
    // The root, `a` and `empty`: each block decodes to its links.
    expect(tree.folders).toHaveLength(3);
    const root = directoryLinks(tree.folders.find((f) => f.cid.equals(tree.root))!.block)!;
    expect(root.map((l) => l.name)).toEqual(['a', 'b.txt', 'empty']);
    expect(directoryLinks(bytes('not a block'))).toBeNull();
  });

  it('links stored entries by CID without their bytes, to the same folder', async () => {
    const first = await buildTree(files.slice(0, 1));
    const root = directoryLinks(first.folders.find((f) => f.cid.equals(first.root))!.block)!;
    const linked: TreeEntry[] = root.map((l) => ({ kind: 'linked', path: l.name, cid: l.cid, size: BigInt(l.size) }));
    const extended = await buildTree([...linked, ...files.slice(1)]);
    expect(extended.root.toString()).toBe((await buildTree(files)).root.toString());
  });

  it('refuses a folder the importer would shard (over 256 KiB of links)', async () => {
    // kubo's DirHAMTCID input (cid_profiles_test.go:113-115): 4033 names of 31 characters.
    const names = kuboFileNames(4033, 31, 'hamt-unixfs-v0-2015');
    const entries = names.map((path): TreeEntry => ({ kind: 'file', path, bytes: new Uint8Array([0x78]) }));
    await expect(buildTree(entries)).rejects.toMatchObject({ status: 413, errorName: 'PayloadTooLargeError' });
  });
});
