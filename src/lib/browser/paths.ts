// Which requests of this origin belong to the built-in ledger.
import { NETWORK } from './protocol';

/** `<origin>/sandbox` and everything below it: the REST API. */
export function isApiPath(pathname: string): boolean {
  return pathname === `/${NETWORK}` || pathname.startsWith(`/${NETWORK}/`);
}

/** `<origin>/ipfs/<cid>` and below: the built-in file gateway (the paths api/routes/ipfs.ts answers). */
export function isFilePath(pathname: string): boolean {
  return /^\/ipfs\/[^/]+(\/|$)/.test(pathname);
}
