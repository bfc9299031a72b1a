// A static host as an app would have one: files or 404, nothing else (no ledger), recording every
// request it sees, so a test can tell what reached the server from what a service worker answered.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

export interface StaticSite {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Every request the server saw: `METHOD /path STATUS`. */
  served: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.txt': 'text/plain' };

export interface StaticSiteOptions {
  /** The Cache-Control of a served file; default `no-cache` (always revalidated). */
  cacheControl?: (path: string) => string;
}

/** Serve `root` at a free port of 127.0.0.1: GET of a file answers it (`/dir/` its index.html), anything else 404. */
export async function serveStatic(root: string, options: StaticSiteOptions = {}): Promise<StaticSite> {
  const cacheControl = options.cacheControl ?? (() => 'no-cache');
  const served: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const body = file.startsWith(root + sep) && req.method === 'GET' ? await readFile(file).catch(() => null) : null;
    if (body === null) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    } else {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': cacheControl(path) }).end(body);
    }
    served.push(`${req.method} ${path} ${res.statusCode}`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, served, close: () => new Promise((done) => server.close(() => done())) };
}
