// Serve the built app (`build/`) the way a static host should: correct content types, SPA
// fallback to index.html for page routes, immutable caching for hashed assets, and the service
// worker never cached. It holds no ledger: `/sandbox/*` and `/ipfs/*` are answered in the browser
// by the service worker (or the page itself), so here they only explain that. A page's
// Content-Security-Policy (a <meta> tag SvelteKit writes, with the hashes of its inline bootstrap
// script) is sent as a header too. Text files go out brotli- or gzip-compressed when the browser
// accepts it (server/compress.ts).
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseEncoding, compressed, isCompressible } from './compress';

export interface PreviewOptions {
  /** The built site; default `build/` beside package.json. */
  root?: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  log?: (line: string) => void;
}

export interface RunningPreview {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml'
};

const DEFAULT_ROOT = fileURLToPath(new URL('../build', import.meta.url));

/** Paths the browser's ledger answers; a request reaching the server means no worker took it. */
const LEDGER_PATH = /^\/(sandbox|ipfs)(\/|$)/;

/** The content type this server sends `file` with. */
export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function headersFor(pathname: string, file: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': contentTypeOf(file),
    'x-content-type-options': 'nosniff'
  };
  if (pathname === '/service-worker.js') {
    // Browsers must see every new worker at once, and it may control the whole origin.
    headers['cache-control'] = 'no-cache';
    headers['service-worker-allowed'] = '/';
  } else if (pathname.startsWith('/_app/immutable/')) {
    headers['cache-control'] = 'public, max-age=31536000, immutable';
  } else {
    headers['cache-control'] = 'no-cache';
  }
  return headers;
}

const CSP_META = /<meta\s+http-equiv=["']content-security-policy["']\s+content=(?:"([^"]*)"|'([^']*)')/i;

/**
 * The header policy of a page: the one its own <meta> tag states (so the two can never disagree,
 * hashes included), plus what a <meta> tag cannot say: no framing by other sites. Null when the
 * page states none.
 */
export function pagePolicy(html: string): string | null {
  const match = CSP_META.exec(html);
  const policy = (match?.[1] ?? match?.[2])?.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&').trim();
  if (!policy) return null;
  return /(^|;)\s*frame-ancestors\s/i.test(policy) ? policy : `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
}

function sendJsonError(res: ServerResponse, status: number, name: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: { code: status === 404 ? 'UN01008' : 'UN01000', name, message, details: {} } }));
}

async function fileAt(root: string, pathname: string): Promise<string | null> {
  const candidate = normalize(join(root, pathname));
  // Nothing outside the root, whatever the path says.
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  try {
    const info = await stat(candidate);
    if (info.isFile()) return candidate;
    if (info.isDirectory()) {
      const index = join(candidate, 'index.html');
      if ((await stat(index).catch(() => null))?.isFile()) return index;
    }
  } catch {
    // Not there.
  }
  return null;
}

/** Whether a missing path is a page of the app (served index.html) rather than a missing file. */
function isPageRoute(req: IncomingMessage, pathname: string): boolean {
  if (extname(pathname) !== '') return false;
  const accept = req.headers.accept ?? '';
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

async function respond(root: string, req: IncomingMessage, res: ServerResponse): Promise<number> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (LEDGER_PATH.test(url.pathname)) return unanswered(res);
    res.writeHead(405, { allow: 'GET, HEAD' });
    res.end();
    return 405;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    sendJsonError(res, 400, 'ValidationError', 'The path is not valid');
    return 400;
  }
  if (LEDGER_PATH.test(pathname)) return unanswered(res);
  let file = await fileAt(root, pathname);
  if (!file && isPageRoute(req, pathname)) file = join(root, 'index.html');
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found');
    return 404;
  }
  if (extname(file).toLowerCase() === '.html') return sendPage(req, res, pathname, file);
  const info = await stat(file);
  const headers = headersFor(pathname, file);
  if (isCompressible(headers['content-type'], info.size)) {
    return sendBody(req, res, 200, headers, () => readFile(file), info, file);
  }
  res.writeHead(200, { ...headers, 'content-length': String(info.size) });
  if (req.method === 'HEAD') {
    res.end();
    return 200;
  }
  await new Promise<void>((done, fail) => {
    createReadStream(file).on('error', fail).on('end', done).pipe(res);
  });
  return 200;
}

/** A whole body, compressed when the browser accepts it (caches then keep one copy per encoding). */
async function sendBody(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, read: () => Promise<Buffer>, info: { size: number; mtimeMs: number }, file: string): Promise<number> {
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  const sent = encoding ? await compressed(file, `${info.size}:${info.mtimeMs}`, read, encoding, info.mtimeMs) : await read();
  const final: Record<string, string> = { ...headers, vary: 'Accept-Encoding', 'content-length': String(sent.byteLength) };
  if (encoding) final['content-encoding'] = encoding;
  res.writeHead(status, final);
  res.end(req.method === 'HEAD' ? undefined : sent);
  return status;
}

/** An HTML page, read whole (pages are small) to send its policy as a header. */
async function sendPage(req: IncomingMessage, res: ServerResponse, pathname: string, file: string): Promise<number> {
  const [html, info] = await Promise.all([readFile(file), stat(file)]);
  const headers: Record<string, string> = headersFor(pathname, file);
  const policy = pagePolicy(html.toString('utf8'));
  if (policy) headers['content-security-policy'] = policy;
  return sendBody(req, res, 200, headers, () => Promise.resolve(html), info, file);
}

function unanswered(res: ServerResponse): number {
  sendJsonError(
    res,
    503,
    'SdkError',
    'The built-in ledger lives in your browser: its service worker (or the Opalite page itself) answers /sandbox and /ipfs. ' +
      'This request reached the static server, so no Opalite page or worker took it. Open the app first; for a ledger without a browser run `npm run serve`.'
  );
  return 503;
}

export async function startPreview(options: PreviewOptions = {}): Promise<RunningPreview> {
  const root = resolve(options.root ?? DEFAULT_ROOT);
  if (!(await stat(join(root, 'index.html')).catch(() => null))) {
    throw new Error(`${root} holds no index.html: build the app first (npx vite build)`);
  }
  const log = options.log ?? (() => {});
  const server = createServer((req, res) => {
    respond(root, req, res).then(
      (status) => log(`${req.method} ${req.url} ${status}`),
      (error) => {
        log(`${req.method} ${req.url} 500 ${String(error)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Internal error');
      }
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 4173, host, () => done());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4173);
  return {
    url: `http://${host}:${port}/`,
    port,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections?.();
      })
  };
}

/** `tsx server/preview.ts` (or scripts/start.mjs): serve until stopped. */
export async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 4173);
  const preview = await startPreview({ port, log: process.env.OPALITE_LOG ? (line) => console.log(line) : undefined });
  console.log(`Opalite at ${preview.url} (REST API in the browser at ${preview.url}sandbox/v1)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void preview.close().then(() => process.exit(0)));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
