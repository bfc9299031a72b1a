// Custodial signing: `Authorization: Seed <mnemonic | //Dev URI>`. The seed is used in memory for
// one request and never stored, logged or echoed. (pairFromSeed memoises the keys of password-less
// dev URIs such as //Alice, which are public; mnemonics and passwords are never kept.)
import type { KeyringPair } from '@polkadot/keyring/types';
import { pairFromSeed } from '../codec/signature';
import { isValidAddress } from '../codec/address';
import { IMPERSONATE_SCHEME as IMPERSONATE, IMPERSONATION_SIGNATURE, isLoopbackHost } from '../codec/impersonation';
import { canonicalAccount } from '../ledger/chain/signature-check';
import { MAX_ACCOUNT_FIELD_LENGTH, quote } from '../limits';
import { ApiError, validationError } from './errors';
import type { ApiContext } from './route';



/**
 * The address an `Authorization: Impersonate <address>` header names, or null when the header is
 * another scheme. Refused (403) when this host's impersonation is off or the base url is remote.
 */
export function impersonatedAddress(ctx: ApiContext): string | null {
  const header = ctx.request.headers.get('authorization');
  if (header === null || !header.startsWith(`${IMPERSONATE} `)) return null;
  const policy = ctx.impersonation;
  if (!policy?.enabled()) {
    throw new ApiError('ImpersonationRefusedError', 'Impersonation is off on this host: start it with --impersonate (on by default in a fork) or switch it on (POST /dev/impersonation)');
  }
  const host = new URL(ctx.request.url).hostname;
  if (!policy.anyHost && !isLoopbackHost(host)) {
    throw new ApiError('ImpersonationRefusedError', `Impersonation is refused on a remote base url (${quote(host)}): it signs without a key, so only this machine may ask for it`);
  }
  const address = header.slice(IMPERSONATE.length + 1).trim();
  if (address.length > MAX_ACCOUNT_FIELD_LENGTH || !isValidAddress(address)) throw validationError(`Invalid authorization header: ${quote(address)} is not an address to impersonate`);
  return address;
}

/**
 * A payload "signed" by impersonation (use=Sign) of its own signer, sent back under the same header
 * where allowed: no key made its signature, so none verifies it.
 */
export function impersonationSigned(ctx: ApiContext, signature: string, signer: string): boolean {
  if (signature.toLowerCase() !== IMPERSONATION_SIGNATURE) return false;
  const impersonated = impersonatedAddress(ctx);
  if (impersonated === null) return false;
  checkImpersonatedSigner(impersonated, signer);
  return true;
}

/** Impersonating `impersonated` may sign only as that account. */
export function checkImpersonatedSigner(impersonated: string, signer: string): void {
  if (canonicalAccount(impersonated) !== canonicalAccount(signer)) {
    throw new ApiError('InvalidSignerError', `Impersonating ${quote(impersonated)}, but the extrinsic's signer is ${quote(signer)}`);
  }
}

/** The signer named by the Authorization header, or null when there is none. */
export function signerFromAuthorization(header: string | null): KeyringPair | null {
  if (header === null || header.trim() === '' || header.startsWith(`${IMPERSONATE} `)) return null;
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  if (scheme !== 'Seed') throw validationError('Invalid authorization header: only "Seed <mnemonic>" (and "Impersonate <address>" in a sandbox) is supported');
  try {
    return pairFromSeed(header.slice(space + 1).trim());
  } catch {
    throw validationError('Invalid authorization header: the seed is not a valid mnemonic or dev URI');
  }
}

export function requireSigner(pair: KeyringPair | null): KeyringPair {
  if (!pair) throw new ApiError('InvalidSignerError', 'No signer provided: send Authorization: Seed <mnemonic>, or sign the payload yourself');
  return pair;
}
