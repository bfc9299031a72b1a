// The standard development accounts of a sandbox chain (//Alice … //Ferdie): their names and
// well-known addresses, and a keystore of a dev URI for importing one. Their keys are public.
import { DEV_ACCOUNTS } from './format';

export interface DevAccount {
  /** Alice */
  name: string;
  /** //Alice */
  uri: string;
  address: string;
}

/** The six funded dev accounts, in their usual order. */
export const DEV_ACCOUNT_LIST: readonly DevAccount[] = Object.entries(DEV_ACCOUNTS).map(([address, uri]) => ({ name: uri.slice(2), uri, address }));

/** A dev URI: `//Name`, optionally with further hard derivations (`//Alice//stash`). */
const DEV_URI = /^(\/\/[A-Za-z0-9_-]{1,32}){1,4}$/;
export const MAX_DEV_URI_LENGTH = 132;

/** `text` trimmed when it is a dev URI such as //Bob; otherwise an error in words. */
export function devUri(text: string): string {
  const uri = text.trim();
  if (uri.length <= MAX_DEV_URI_LENGTH && DEV_URI.test(uri)) return uri;
  throw new Error('Development key: write it as // and a name, for example //Bob');
}

/** A suggested account name for a dev URI (//Bob → Bob, //Alice//stash → Alice stash). */
export function devName(uri: string): string {
  return uri.split('//').filter(Boolean).join(' ');
}

/**
 * The polkadot{.js} keystore JSON (text) of a dev URI, derived from the published development
 * phrase and encrypted with `password`. Loaded lazily: the keyring is only needed here.
 */
export async function devKeystore(uri: string, name: string, password: string): Promise<string> {
  const [{ DEV_PHRASE, Keyring }, { cryptoWaitReady }] = await Promise.all([import('@polkadot/keyring'), import('@polkadot/util-crypto')]);
  await cryptoWaitReady();
  const pair = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(`${DEV_PHRASE}${devUri(uri)}`, { name, whenCreated: Date.now() });
  try {
    return JSON.stringify(pair.toJson(password));
  } finally {
    pair.lock();
  }
}
