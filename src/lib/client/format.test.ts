// The safe-URL rule for token images and links: only schemes an image may come from.
import { describe, expect, it } from 'vitest';
import { countText, fileSize, idRanges, mediaUrl, safeMediaUrl } from './format';

describe('safeMediaUrl', () => {
  it('keeps web, IPFS, blob and data-image URLs, and paths of this site', () => {
    for (const url of [
      'https://example.com/fox.png',
      'http://127.0.0.1:4173/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
      'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
      'blob:http://127.0.0.1:4173/0b5c6c1e-7f1f-4a8e-9d2a-1c2b3d4e5f60',
      'data:image/png;base64,iVBORw0KGgo=',
      'DATA:Image/SVG+xml,<svg/>',
      '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    ]) {
      expect(safeMediaUrl(url), url).toBe(url);
    }
    expect(safeMediaUrl('  https://example.com/a.png\n')).toBe('https://example.com/a.png');
  });

  it('refuses javascript: however it is spelled, and every other scheme', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:,hello',
      'file:///etc/passwd',
      'ftp://example.com/a.png',
      'about:blank'
    ]) {
      expect(safeMediaUrl(url), JSON.stringify(url)).toBeNull();
    }
    expect(safeMediaUrl('')).toBeNull();
    expect(safeMediaUrl(null)).toBeNull();
    expect(safeMediaUrl(undefined)).toBeNull();
  });
});

describe('mediaUrl', () => {
  it('answers the full URL of a media object only when it is safe', () => {
    expect(mediaUrl({ url: 'https://example.com/a.png', fullUrl: 'https://example.com/a.png' })).toBe('https://example.com/a.png');
    expect(mediaUrl({ url: 'javascript:alert(1)', fullUrl: 'javascript:alert(1)' })).toBeNull();
    expect(mediaUrl(null)).toBeNull();
  });
});

describe('counts, id lists and sizes in words', () => {
  it('makes the noun agree with the count', () => {
    expect([0, 1, 2].map((n) => countText(n, 'token'))).toEqual(['0 tokens', '1 token', '2 tokens']);
    expect(countText(1, 'batch', 'batches')).toBe('1 batch');
  });

  it('writes runs of three or more ids as ranges', () => {
    expect(idRanges([])).toBe('');
    expect(idRanges([1, 2])).toBe('1, 2');
    expect(idRanges([1, 2, 3, 5, 7, 8, 9, 10])).toBe('1–3, 5, 7–10');
  });

  it('gives sizes in bytes, KB and MB', () => {
    expect(fileSize(1)).toBe('1 byte');
    expect(fileSize(812)).toBe('812 bytes');
    expect(fileSize(340 * 1024)).toBe('340 KB');
    expect(fileSize(Math.round(10.8 * 1024 * 1024))).toBe('10.8 MB');
    expect(fileSize(20 * 1024 * 1024)).toBe('20 MB');
  });
});
