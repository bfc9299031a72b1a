// Every address the app can name: the wallet's accounts, the contacts and the sandbox's dev
// accounts (sandbox only: on a real chain they are nobody's), in that order of precedence (a
// wallet name wins over a contact's).
import { sameAddress } from '../client/address';
import { DEV_ACCOUNT_LIST } from '../client/dev-accounts';
import { contacts } from './contacts.svelte';
import { session } from './session.svelte';
import { settings } from './settings.svelte';

export type KnownKind = 'account' | 'contact' | 'dev';

export interface KnownAddress {
  address: string;
  name: string;
  kind: KnownKind;
}

export const KIND_WORDS: Record<KnownKind, string> = { account: 'your account', contact: 'contact', dev: 'development account' };

/** The known addresses, each once (the first kind that names it wins). */
export function knownAddresses(): KnownAddress[] {
  const all: KnownAddress[] = [
    ...session.accounts.map((a) => ({ address: a.address, name: a.name || 'Unnamed account', kind: 'account' as const })),
    ...contacts.list.map((c) => ({ ...c, kind: 'contact' as const })),
    ...(settings.isSandbox ? DEV_ACCOUNT_LIST : []).map((d) => ({ address: d.address, name: d.name, kind: 'dev' as const }))
  ];
  return all.filter((entry, i) => all.findIndex((other) => sameAddress(other.address, entry.address)) === i);
}

/** What the app calls `address`, or null when it knows no name for it. */
export function knownAddress(address: string): KnownAddress | null {
  return knownAddresses().find((k) => sameAddress(k.address, address)) ?? null;
}
