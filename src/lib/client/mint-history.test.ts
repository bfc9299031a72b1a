import { describe, expect, it } from 'vitest';
import { MAX_FINGERPRINTS, alreadyMinted, alreadyMintedText, fileHash, fingerprints, mintedRows, rememberMinted, type MintedRow } from './mint-history';
import { dayText } from './format';
import { parseMintList } from './mint-list';

const BASE = 'http://localhost/sandbox/v1';
const DAY = Date.UTC(2026, 10, 26, 12);

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

const items = (csv: string, files: string[] = []) => {
  const result = parseMintList(csv, null, files);
  expect(result.errors).toEqual([]);
  return result.items;
};

describe('row fingerprints', () => {
  it('are equal for the same content written differently, and differ when any field differs', async () => {
    const list = items(
      'name,description,image\nFox,A red fox,QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG\n  fox ,a  RED fox,QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG\nFox,A red fox,https://example.com/fox.png\nFox,A blue fox,QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG\n'
    );
    const [a, b, c, d] = await fingerprints(list, new Map());
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(b).toBe(a);
    expect(new Set([a, c, d]).size).toBe(3);
  });

  it('know a picked image by its bytes, not its file name', async () => {
    const list = items('name,image\nFox,fox.png\nFox,renamed.png\nFox,other.png\n', ['fox.png', 'renamed.png', 'other.png']);
    const same = await fileHash(new Blob([new Uint8Array([1, 2, 3])]));
    const other = await fileHash(new Blob([new Uint8Array([1, 2, 4])]));
    const [a, b, c] = await fingerprints(list, new Map([['fox.png', same], ['renamed.png', same], ['other.png', other]]));
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('take attributes in any column order', async () => {
    const [a] = await fingerprints([{ data: { name: { _: 'A' }, attributes: { '0': 'red', '1': 3 } } }], new Map());
    const [b] = await fingerprints([{ data: { name: { _: 'A' }, attributes: { '1': 3, '0': 'red' } } }], new Map());
    const [c] = await fingerprints([{ data: { name: { _: 'A' }, attributes: { '0': 'red', '1': 4 } } }], new Map());
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });
});

describe('the minted rows a browser remembers', () => {
  it('are kept per service and collection, and found again by fingerprint', () => {
    const storage = memoryStorage();
    rememberMinted(storage, BASE, 1, [['aa', 1, DAY], ['bb', 2, DAY]]);
    rememberMinted(storage, BASE, 2, [['cc', 1, DAY]]);
    rememberMinted(storage, 'https://rest.unique.network/opal/v1', 1, [['dd', 7, DAY]]);
    expect(mintedRows(storage, BASE, 1).map((r) => r[0])).toEqual(['aa', 'bb']);
    expect(alreadyMinted(['xx', 'bb', 'aa', 'cc'], mintedRows(storage, BASE, 1), null)).toEqual([
      { index: 1, tokenId: 2, at: DAY },
      { index: 2, tokenId: 1, at: DAY }
    ]);
  });

  it('do not count tokens the collection no longer has', () => {
    const history: MintedRow[] = [['aa', 1, DAY], ['bb', 2, DAY]];
    expect(alreadyMinted(['aa', 'bb'], history, new Set([2])).map((r) => r.tokenId)).toEqual([2]);
  });

  it('are bounded: the newest fingerprints of a collection stay', () => {
    const storage = memoryStorage();
    const rows: MintedRow[] = Array.from({ length: MAX_FINGERPRINTS + 5 }, (_, i) => [`p${i}`, i + 1, DAY]);
    rememberMinted(storage, BASE, 1, rows);
    const kept = mintedRows(storage, BASE, 1);
    expect(kept.length).toBe(MAX_FINGERPRINTS);
    expect(kept[0][0]).toBe('p5');
  });

  it('survive broken storage as an empty history', () => {
    const storage = memoryStorage();
    storage.setItem('opalite.mint-history', '{not json');
    expect(mintedRows(storage, BASE, 1)).toEqual([]);
    storage.setItem('opalite.mint-history', JSON.stringify([{ baseUrl: BASE, collectionId: 1, rows: [['ok', 1, DAY], ['bad', 'x', DAY]] }]));
    expect(mintedRows(storage, BASE, 1)).toEqual([['ok', 1, DAY]]);
  });
});

describe('the warning text', () => {
  it('names runs of neighbouring lines with the tokens they became', () => {
    const list = items('name\nA\nB\nC\nD\nE\n');
    const at = DAY;
    const text = alreadyMintedText(list, [
      { index: 0, tokenId: 1, at },
      { index: 1, tokenId: 2, at },
      { index: 2, tokenId: 3, at },
      { index: 4, tokenId: 9, at }
    ]);
    const day = dayText(at);
    expect(text).toEqual([`Lines 2–4 were minted on ${day} as tokens 1–3`, `Line 6 was minted on ${day} as token 9`]);
  });

  it('says how many more rows there are past its limit', () => {
    const list = items('name\nA\nB\nC\nD\nE\n');
    const text = alreadyMintedText(list, [0, 2, 4].map((i) => ({ index: i, tokenId: i + 1, at: DAY })), 1);
    expect(text).toHaveLength(2);
    expect(text[1]).toBe('…and 2 more rows');
  });
});
