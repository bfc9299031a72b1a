import { describe, expect, it } from 'vitest';
import { RestClient, type FetchLike } from './client';
import { dayText } from './format';
import type { GalleryItem } from './gallery';
import { alreadyMintedText, withLedgerMatches } from './mint-history';
import { MAX_COMPARED_TOKENS, matchRows, rowsInLedger } from './mint-ledger-match';
import { parseMintList } from './mint-list';

const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';

const items = (csv: string, files: string[] = []) => {
  const result = parseMintList(csv, null, files);
  expect(result.errors).toEqual([]);
  return result.items;
};
const token = (tokenId: number, name: string, image: string | null = null) => ({ tokenId, name, image });

describe('rows of a list found among the tokens of the collection', () => {
  it('matches by name as a person reads it, one token per row, the lowest id first', () => {
    const list = items('name\nFox\n  fox \nOwl\nBear\n');
    expect(matchRows(list, [token(7, 'FOX'), token(3, 'Fox'), token(9, 'owl')])).toEqual([
      { index: 0, tokenId: 7 },
      { index: 1, tokenId: 3 },
      { index: 2, tokenId: 9 }
    ]);
  });

  it('asks for the same picture where the row names one by URL or CID, and by name alone for a picked file', () => {
    const list = items(`name,image\nFox,https://img.test/fox.png\nFox,${CID}\nFox,fox.png\n`, ['fox.png']);
    const tokens = [token(1, 'Fox', 'https://img.test/other.png'), token(2, 'Fox', `http://host/ipfs/${CID}`), token(3, 'Fox', 'https://img.test/fox.png'), token(4, 'Fox', null)];
    expect(matchRows(list, tokens)).toEqual([
      { index: 0, tokenId: 3 },
      { index: 1, tokenId: 2 },
      { index: 2, tokenId: 1 }
    ]);
  });

  it('joins what this browser remembers (with its day) and what only the ledger has, each row once', () => {
    const list = items('name\nA\nB\nC\nD\n');
    const joined = withLedgerMatches(
      [{ index: 0, tokenId: 1, at: Date.UTC(2026, 10, 26, 12) }],
      [
        { index: 0, tokenId: 1 },
        { index: 1, tokenId: 2 },
        { index: 2, tokenId: 3 }
      ]
    );
    expect(joined.map((r) => [r.index, r.tokenId, r.at === null])).toEqual([
      [0, 1, false],
      [1, 2, true],
      [2, 3, true]
    ]);
    expect(alreadyMintedText(list, joined)).toEqual([`Line 2 was minted on ${dayText(Date.UTC(2026, 10, 26, 12))} as token 1`, 'Lines 3–4 match tokens 2, 3 already in this collection (same names)']);
  });

  it('reads the gallery a bounded page at a time, and skips a collection too large to compare', async () => {
    const asked: URL[] = [];
    const total = 450;
    const fetch: FetchLike = async (input) => {
      const url = new URL(String(input));
      asked.push(url);
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const tokens: GalleryItem[] = [];
      for (let id = offset + 1; id <= Math.min(total, offset + limit); id++) tokens.push({ tokenId: id, name: `T ${id}`, image: null, owner: null, rarity: 0 });
      return new Response(JSON.stringify({ collectionId: 5, blockNumber: 1, total, matching: total, offset, tokens, attributes: [] }), { status: 200 });
    };
    const client = new RestClient({ baseUrl: 'http://host/v1', fetch });
    const found = await rowsInLedger(client, 5, items('name\nT 1\nT 449\nT 451\n'));
    expect(found).toEqual({ matches: [{ index: 0, tokenId: 1 }, { index: 1, tokenId: 449 }], skipped: false });
    expect(asked.map((u) => [u.pathname, u.searchParams.get('offset'), u.searchParams.get('limit'), u.searchParams.get('sort')])).toEqual([
      ['/v1/tokens/gallery', '0', '200', 'id'],
      ['/v1/tokens/gallery', '200', '200', 'id'],
      ['/v1/tokens/gallery', '400', '200', 'id']
    ]);

    const huge: FetchLike = async () => new Response(JSON.stringify({ collectionId: 5, blockNumber: 1, total: MAX_COMPARED_TOKENS + 1, matching: MAX_COMPARED_TOKENS + 1, offset: 0, tokens: [], attributes: [] }), { status: 200 });
    expect(await rowsInLedger(new RestClient({ baseUrl: 'http://host/v1', fetch: huge }), 5, items('name\nA\n'))).toEqual({ matches: [], skipped: true });
  });
});
