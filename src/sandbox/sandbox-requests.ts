// Which requests the sandbox worker answers. It lives in another app's origin, so it takes only
// what is the sandbox's: the REST API's own routes at `/sandbox/v1/…` and `/sandbox/…` (every
// spelling the handler routes) and `GET`/`HEAD /ipfs/<cid>[/<path>]`. Navigations, other paths
// (under /sandbox too), other methods on /ipfs and other origins are the app's: the worker leaves
// them to the browser untouched.
import { TrieRouter } from 'hono/router/trie-router';
import { getPath } from 'hono/utils/url';
import { pathSpellings } from '../lib/api/handler';
import { cidSpellings } from '../lib/api/ipfs/tree-store';
import type { Route } from '../lib/api/route';
import { devRoutes, type DevControls } from '../lib/api/routes/dev';
import { allRoutes } from '../lib/api/routes/index';
import { ipfsPathCid, ipfsRoutes, type FileStoreLike } from '../lib/api/routes/ipfs';
import { NETWORK } from '../lib/client/sandbox-paths';

/** Stands in for the host and file store the extra routes are built with: only their paths are read here. */
const PATHS_ONLY = new Proxy(
  {},
  {
    get() {
      throw new Error('the sandbox worker builds these routes for their paths only');
    }
  }
);

/** The routes the worker's host answers: the handler's table plus the browser host's dev and upload routes (browser-host.ts). */
function hostRoutes(): Route[] {
  return [...allRoutes(), ...devRoutes(PATHS_ONLY as DevControls), ...ipfsRoutes({ files: PATHS_ONLY as FileStoreLike })];
}

/** Every path the handler routes, as its router matches them (any method: a wrong one gets the API's own 404). */
function apiPathRouter(): TrieRouter<true> {
  const router = new TrieRouter<true>();
  const paths = new Set(hostRoutes().flatMap(pathSpellings));
  // The handler also serves its OpenAPI document at both spellings.
  for (const path of [...paths, '/v1/openapi.json', '/openapi.json']) router.add('ALL', `/${NETWORK}${path}`, true);
  return router;
}

let router: TrieRouter<true> | undefined;

/** A path of the REST API (as the handler reads it from the URL: percent-decoded, no query). */
export function isSandboxApiRequest(request: Pick<Request, 'url' | 'method'>): boolean {
  router ??= apiPathRouter();
  return router.match(request.method, getPath(request as Request))[0].length > 0;
}

/** `GET`/`HEAD <origin>/ipfs/<cid>[/<path>]` where `<cid>` is a CID. */
export function isSandboxFileRequest(request: Pick<Request, 'url' | 'method'>): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const cid = ipfsPathCid(new URL(request.url).pathname);
  return cid !== null && cidSpellings(cid).length > 0;
}

/** Does the sandbox worker answer this request of a page it controls on `origin`? */
export function answersRequest(request: Pick<Request, 'url' | 'method' | 'mode'>, origin: string): boolean {
  // A page, frame or form submission is the app's to load, even at a sandbox path.
  if (request.mode === 'navigate') return false;
  if (new URL(request.url).origin !== origin) return false;
  return isSandboxApiRequest(request) || isSandboxFileRequest(request);
}
