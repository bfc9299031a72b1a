import { describe, expect, it } from 'vitest';
import { ContentError } from './errors';
import { checkMedia, mediaFullUrl } from './media';

const GATEWAY = 'http://localhost:4173/ipfs';

describe('checkMedia', () => {
  it('accepts exactly one source plus an optional hash, dropping read-only fields', () => {
    expect(checkMedia({ ipfsCid: 'QmA', hash: 'h', fullUrl: 'x' }, 'data.image')).toEqual({ ipfsCid: 'QmA', hash: 'h' });
    expect(checkMedia({ url: 'https://a.b/c.png', hash: null }, 'data.image')).toEqual({ url: 'https://a.b/c.png' });
    expect(checkMedia({ urlInfix: 'c.png' }, 'data.image')).toEqual({ urlInfix: 'c.png' });
  });

  it('names the field when the sources are wrong', () => {
    expect(() => checkMedia({ ipfsCid: 'a', url: 'https://b' }, 'data.image')).toThrow(
      new ContentError('data.image must have exactly one of ipfsCid, url or urlInfix')
    );
    expect(() => checkMedia({}, 'data.video')).toThrow('data.video must have exactly one of ipfsCid, url or urlInfix');
    expect(() => checkMedia('QmA', 'data.image')).toThrow('data.image must be an object');
    expect(() => checkMedia({ ipfsCid: 5 }, 'data.image')).toThrow('data.image.ipfsCid must be a string');
    expect(() => checkMedia({ url: 'not a url' }, 'data.image')).toThrow('data.image.url must be a valid absolute URL');
    expect(() => checkMedia({ urlInfix: 'a', hash: 1 }, 'data.audio')).toThrow('data.audio.hash must be a string');
  });
});

describe('mediaFullUrl', () => {
  it('keeps a url as is', () => {
    expect(mediaFullUrl({ url: 'https://x/y' }, 'https://t/{infix}', GATEWAY)).toBe('https://x/y');
  });

  it('substitutes an infix or a CID into the template', () => {
    expect(mediaFullUrl({ urlInfix: 'a.png' }, 'https://t/{infix}', GATEWAY)).toBe('https://t/a.png');
    expect(mediaFullUrl({ ipfsCid: 'QmA' }, 'https://ipfs.io/ipfs/{infix}', GATEWAY)).toBe('https://ipfs.io/ipfs/QmA');
  });

  it('sends a CID under the bare {infix} template to the built-in gateway', () => {
    expect(mediaFullUrl({ ipfsCid: 'QmA/1.png' }, '{infix}', GATEWAY)).toBe(`${GATEWAY}/QmA/1.png`);
    expect(mediaFullUrl({ ipfsCid: 'QmA' }, '{infix}', `${GATEWAY}/`)).toBe(`${GATEWAY}/QmA`);
    expect(mediaFullUrl({ urlInfix: 'https://x/1.png' }, '{infix}', GATEWAY)).toBe('https://x/1.png');
  });

  it('falls back to ipfs:// without a template, else null', () => {
    expect(mediaFullUrl({ ipfsCid: 'QmA' }, undefined, GATEWAY)).toBe('ipfs://QmA');
    expect(mediaFullUrl({ urlInfix: 'a' }, undefined, GATEWAY)).toBeNull();
  });
});
