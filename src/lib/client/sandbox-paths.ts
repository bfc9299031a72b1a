// Where the built-in ledger answers on its origin: the REST API under `/sandbox`, files under `/ipfs`.

/** The built-in ledger's network segment: the REST API is at `<origin>/sandbox/v1`. */
export const NETWORK = 'sandbox';

/** `<origin>/sandbox` and everything below it: the REST API. */
export function isApiPath(pathname: string): boolean {
  return pathname === `/${NETWORK}` || pathname.startsWith(`/${NETWORK}/`);
}

/** `<origin>/ipfs/<cid>` and below: the built-in file gateway (the paths api/routes/ipfs.ts answers). */
export function isFilePath(pathname: string): boolean {
  return /^\/ipfs\/[^/]+(\/|$)/.test(pathname);
}
