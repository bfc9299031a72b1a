// server/preview.ts: the static host of the built app.
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress, precompressedPath } from '../../server/compress';
import { pagePolicy, startPreview, type RunningPreview } from '../../server/preview';

const POLICY = "default-src 'self'; script-src 'self' 'sha256-abc='";
let root: string;
let preview: RunningPreview;

beforeAll(async () => {
  root = join(tmpdir(), `opalite-preview-${process.pid}`);
  mkdirSync(join(root, '_app', 'immutable'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Opalite</title>');
  writeFileSync(join(root, 'service-worker.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(root, '_app', 'immutable', 'app.abc.js'), 'export {};');
  writeFileSync(join(root, '_app', 'version.json'), '{"version":"1"}');
  mkdirSync(join(root, 'secured'));
  writeFileSync(join(root, 'secured', 'index.html'), `<!doctype html><head><meta http-equiv="content-security-policy" content="${POLICY}"></head><title>Secured</title>`);
  preview = await startPreview({ root, port: 0 });
});

afterAll(async () => {
  await preview.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (path: string, init?: RequestInit) => fetch(new URL(path, preview.url), init);

describe('the preview server', () => {
  it('serves the worker uncached, allowed at the root', async () => {
    const response = await get('/service-worker.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('service-worker-allowed')).toBe('/');
  });

  it('serves hashed assets as immutable, with their content type', async () => {
    const response = await get('/_app/immutable/app.abc.js');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('/_app/version.json')).headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('falls back to index.html for page routes, not for missing files', async () => {
    const page = await get('/collections/5', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Opalite</title>');
    expect((await get('/_app/immutable/missing.js')).status).toBe(404);
  });

  it('never serves outside its root', async () => {
    const response = await get('/..%2f..%2f..%2fetc%2fpasswd', { headers: { accept: 'text/html' } });
    expect(await response.text()).not.toContain('root:');
  });

  it('explains that the ledger is in the browser when /sandbox or /ipfs reach it', async () => {
    for (const [path, method] of [['/sandbox/v1/collections?collectionId=1', 'GET'], ['/sandbox/v1/collections', 'POST'], ['/ipfs/bafkrei', 'GET']]) {
      const response = await get(path, { method });
      expect(response.status).toBe(503);
      expect((await response.json()).error.message).toMatch(/lives in your browser/);
    }
  });

  it("sends a page's own Content-Security-Policy as a header, and forbids framing", async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await get('/secured/', { method });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(`${POLICY}; frame-ancestors 'none'`);
    }
    expect(await (await get('/secured/')).text()).toContain('<title>Secured</title>');
    // A page that states no policy gets none (test pages of the e2e suite, say).
    expect((await get('/collections/5', { headers: { accept: 'text/html' } })).headers.get('content-security-policy')).toBeNull();
  });
});

describe('pagePolicy', () => {
  it('reads the meta tag as SvelteKit writes it, entities included', () => {
    expect(pagePolicy(`<meta http-equiv="content-security-policy" content="script-src &#39;self&#39;">`)).toBe("script-src 'self'; frame-ancestors 'none'");
    expect(pagePolicy(`<meta http-equiv='Content-Security-Policy' content='img-src data:; frame-ancestors https://a.example'>`)).toBe('img-src data:; frame-ancestors https://a.example');
    expect(pagePolicy('<meta name="description" content="no policy here">')).toBeNull();
  });

  it('sends a copy compressed ahead beside a file when it is newer than the file, and compresses a stale one\'s file itself', async () => {
    const script = (text: string) => `/* ${text} */ ${'self.addEventListener("fetch", () => {});\n'.repeat(64)}`;
    const file = (name: string) => join(root, '_app', 'immutable', name);
    writeFileSync(file('ahead.js'), script('the file'));
    writeFileSync(precompressedPath(file('ahead.js'), 'br'), brotliCompressSync(script('the copy compressed ahead')));
    writeFileSync(file('stale.js'), script('the file, rebuilt'));
    writeFileSync(precompressedPath(file('stale.js'), 'br'), brotliCompressSync(script('an earlier build')));
    const now = Date.now() / 1000;
    utimesSync(file('ahead.js'), now - 60, now - 60);
    utimesSync(file('stale.js'), now, now);
    utimesSync(precompressedPath(file('stale.js'), 'br'), now - 60, now - 60);
    const br = { headers: { 'accept-encoding': 'br' } };
    const ahead = await get('/_app/immutable/ahead.js', br);
    expect(ahead.headers.get('content-encoding')).toBe('br');
    expect(await ahead.text()).toBe(script('the copy compressed ahead'));
    const stale = await get('/_app/immutable/stale.js', br);
    expect(stale.headers.get('content-encoding')).toBe('br');
    expect(await stale.text()).toBe(script('the file, rebuilt'));
  });
});

describe('compressing ahead', () => {
  it('writes a brotli and a gzip copy beside a file, and none for a file too small to gain or of a type sent as it is', () => {
    const big = join(root, 'big.js');
    const small = join(root, 'small.js');
    writeFileSync(big, 'console.log("a line of the app");\n'.repeat(100));
    writeFileSync(small, 'export {};');
    precompress(big, 'text/javascript; charset=utf-8');
    precompress(small, 'text/javascript; charset=utf-8');
    expect(brotliDecompressSync(readFileSync(precompressedPath(big, 'br'))).toString()).toBe(readFileSync(big, 'utf8'));
    expect(gunzipSync(readFileSync(precompressedPath(big, 'gzip'))).toString()).toBe(readFileSync(big, 'utf8'));
    expect([existsSync(precompressedPath(small, 'br')), existsSync(precompressedPath(small, 'gzip'))]).toEqual([false, false]);
    // Nor for a type the server sends as it is.
    const image = join(root, 'big.png');
    writeFileSync(image, readFileSync(big));
    precompress(image, 'image/png');
    expect([existsSync(precompressedPath(image, 'br')), existsSync(precompressedPath(image, 'gzip'))]).toEqual([false, false]);
  });
});
