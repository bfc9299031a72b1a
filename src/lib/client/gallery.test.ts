import { describe, expect, it } from 'vitest';
import { attributeCounts, countsText, galleryTokens, rarityScores, type GalleryQuery } from './gallery';
import type { Token } from './types';

function token(tokenId: number, name: string, rarity: string, colors: string[] = []): Token {
  return {
    collectionId: 1,
    tokenId,
    owner: '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
    name: { _: name },
    properties: [],
    attributes: {
      '0': { name: { _: 'Rarity' }, value: { _: rarity }, isArray: false, type: 'string', isEnum: true },
      '1': { name: { _: 'Colors' }, value: colors.map((c) => ({ _: c })), isArray: true, type: 'string' }
    }
  };
}

const tokens = [token(1, 'Zed', 'common', ['red']), token(2, 'amber', 'epic', ['red', 'blue']), token(3, 'Bolt', 'common'), token(4, 'Amber 10', 'common', ['blue']), token(5, 'Amber 9', 'epic')];
const query = (q: Partial<GalleryQuery>): GalleryQuery => ({ search: '', filters: {}, sort: 'id', ...q });
const ids = (list: Token[]) => list.map((t) => t.tokenId);

describe('gallery', () => {
  it('counts each value per attribute, most common first', () => {
    const counts = attributeCounts(tokens);
    expect(counts.map(countsText)).toEqual(['Rarity: common (3), epic (2)', 'Colors: blue (2), red (2)']);
  });

  it('searches by name, case-insensitively', () => {
    expect(ids(galleryTokens(tokens, query({ search: ' AMBER ' })))).toEqual([2, 4, 5]);
    expect(ids(galleryTokens(tokens, query({ search: 'nothing' })))).toEqual([]);
  });

  it('filters by every chosen attribute value, list values included', () => {
    expect(ids(galleryTokens(tokens, query({ filters: { Rarity: 'epic' } })))).toEqual([2, 5]);
    expect(ids(galleryTokens(tokens, query({ filters: { Rarity: 'common', Colors: 'blue' } })))).toEqual([4]);
    expect(ids(galleryTokens(tokens, query({ filters: { Rarity: '' } })))).toEqual([1, 2, 3, 4, 5]);
  });

  it('sorts by name (numbers in order), by id, and rarest first', () => {
    expect(ids(galleryTokens(tokens, query({ sort: 'name' })))).toEqual([2, 5, 4, 3, 1]);
    expect(ids(galleryTokens([...tokens].reverse(), query({ sort: 'id' })))).toEqual([1, 2, 3, 4, 5]);
    // 2: epic, red, blue; 1 and 4: common and one colour (tied, by id); 5: epic alone; 3: common alone.
    expect(ids(galleryTokens(tokens, query({ sort: 'rarity' })))).toEqual([2, 1, 4, 5, 3]);
    const scores = rarityScores(tokens);
    expect(scores.get(3)).toBeCloseTo(5 / 3);
    expect(scores.get(2)).toBeCloseTo(5 / 2 + 5 / 2 + 5 / 2);
  });
});
