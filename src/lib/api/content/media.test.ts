import { describe, expect, it } from 'vitest';
import { ContentError } from './errors';
import { checkMedia, decodeMedia, mediaFullUrl } from './media';

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

describe('media URL schemes', () => {
  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'data:text/html,<script>alert(1)</script>'])(
    'refuses url %j naming the field',
    (url) => {
      expect(() => checkMedia({ url }, 'data.image')).toThrow(ContentError);
      expect(() => checkMedia({ url }, 'data.image')).toThrow(/^data\.image\.url must be an http\(s\), ipfs:\/\/ or data:image URL/);
    }
  );

  it('accepts http(s), ipfs:// and data:image URLs', () => {
    for (const url of ['https://a.b/c.png', 'http://a.b/c.png', 'ipfs://bafkreia', 'data:image/png;base64,iVBORw0KGgo=']) {
      expect(checkMedia({ url }, 'data.image')).toEqual({ url });
    }
  });

  it('refuses an infix that is a URL of another scheme (a bare {infix} template makes it the whole URL)', () => {
    expect(() => checkMedia({ urlInfix: 'javascript:alert(1)' }, 'data.video')).toThrow(/^data\.video\.urlInfix must not be/);
    expect(checkMedia({ urlInfix: 'c.png' }, 'data.video')).toEqual({ urlInfix: 'c.png' });
  });

  it('never hands out a fullUrl of another scheme, whatever is stored', () => {
    expect(decodeMedia({ url: 'javascript:alert(1)' }, '{infix}', GATEWAY).fullUrl).toBeNull();
    expect(decodeMedia({ urlInfix: 'javascript:alert(1)' }, '{infix}', GATEWAY).fullUrl).toBeNull();
    expect(decodeMedia({ urlInfix: 'a.png' }, 'https://x/{infix}', GATEWAY).fullUrl).toBe('https://x/a.png');
  });

  it('quotes at most 120 characters of a long bad URL', () => {
    const url = `javascript:${'a'.repeat(100_000)}`;
    let message = '';
    try {
      checkMedia({ url }, 'data.image');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/data\.image\.url/);
    expect(message.length).toBeLessThan(300);
  });
});
