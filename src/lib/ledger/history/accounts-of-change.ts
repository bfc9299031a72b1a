// Whose history a row change belongs to: the accounts it names (a balance's holder, a token's owner
// and approved spender, a fungible or refungible holder and spender, an operator). The stores index
// kept changes by these, so an account's history is pages of one index, never a scan of blocks.
import type { RowChange } from '../store';
import type { AccountRecord, TokenRecord } from '../types';
import { PARTIAL_OWNER } from '../refungible/state';

/** Meta rows keyed by accounts: `<prefix><collection>[:<token>]:<account>[:<account>]`. */
const ACCOUNT_KEYED_META = ['ft:balance:', 'ft:allowance:', 'rft:owned:', 'rft:allowance:', 'allowanceForAll:'];
const PIECES_META = 'rft:pieces:';

/** The accounts a meta key names: its segments after the prefix that are not numbers. */
function accountsOfMetaKey(key: string): string[] {
  if (!ACCOUNT_KEYED_META.some((prefix) => key.startsWith(prefix))) return [];
  return key
    .split(':')
    .slice(2)
    .filter((part) => part !== '' && !/^\d+$/.test(part));
}

/** The holders of a refungible token's pieces (the `rft:pieces:` row's balances). */
function holdersOf(value: unknown): string[] {
  const balances = (value as { value?: { balances?: unknown } } | undefined)?.value?.balances;
  return balances && typeof balances === 'object' ? Object.keys(balances) : [];
}

/** The accounts whose history `change` is part of, each once (none for rows no account owns: collections, supply, blocks). */
export function accountsOfChange(change: RowChange): string[] {
  const found = new Set<string>();
  switch (change.table) {
    case 'accounts':
      found.add(change.key as AccountRecord['address']);
      break;
    case 'tokens':
      for (const row of [change.before, change.after] as (TokenRecord | undefined)[]) {
        if (row?.owner) found.add(row.owner);
        if (row?.approved) found.add(row.approved);
      }
      break;
    case 'meta': {
      const key = String(change.key);
      for (const account of accountsOfMetaKey(key)) found.add(account);
      if (key.startsWith(PIECES_META)) for (const row of [change.before, change.after]) for (const holder of holdersOf(row)) found.add(holder);
      break;
    }
    default:
      break;
  }
  // A refungible token split between holders names no account as its owner.
  found.delete(PARTIAL_OWNER);
  return [...found];
}
