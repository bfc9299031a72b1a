// Custodial signing: `Authorization: Seed <mnemonic | //Dev URI>`. The seed is used in memory for
// one request and never stored, logged or echoed. (pairFromSeed memoises the keys of password-less
// dev URIs such as //Alice, which are public; mnemonics and passwords are never kept.)
import type { KeyringPair } from '@polkadot/keyring/types';
import { pairFromSeed } from '../codec/signature';
import { ApiError, validationError } from './errors';

/** The signer named by the Authorization header, or null when there is none. */
export function signerFromAuthorization(header: string | null): KeyringPair | null {
  if (header === null || header.trim() === '') return null;
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  if (scheme !== 'Seed') throw validationError('Invalid authorization header: only "Seed <mnemonic>" is supported');
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
