import { describe, expect, it } from 'vitest';
import { readGalleryView, writeGalleryView } from './gallery-view';

describe('gallery view in the URL', () => {
  it('round-trips search, filters, sort, order and place, keeping other parameters', () => {
    const view = { search: 'ruby', filters: { Color: 'red: dark', Level: '10' }, sort: 'attr:Level', order: 'desc' as const, from: 240 };
    const params = writeGalleryView(new URLSearchParams('tab=gallery&from=3'), view);
    expect(params.get('tab')).toBe('gallery');
    expect(params.getAll('attr')).toEqual(['Color:red: dark', 'Level:10']);
    expect(readGalleryView(params)).toEqual(view);
  });

  it('leaves defaults out and reads nonsense as the default view', () => {
    expect(writeGalleryView(new URLSearchParams(), { search: ' ', filters: { A: '' }, sort: 'rarity', order: 'desc', from: 0 }).toString()).toBe('sort=rarity');
    expect(readGalleryView(new URLSearchParams('sort=colour&order=up&from=-5&attr=nocolon'))).toEqual({ search: '', filters: {}, sort: 'id', order: 'asc', from: 0 });
    expect(readGalleryView(new URLSearchParams('sort=rarity')).order).toBe('desc');
  });
});
