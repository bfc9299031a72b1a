// Every Store the ledger runs on, for the behaviour checks they must all pass: the reference
// MemoryStore, the browser's DexieStore and the Node host's SqliteStore (kept out of src/lib, which
// never imports the Node host).
import { openSqliteStore } from '../../server/storage/sqlite-store';
import type { Store } from '../../src/lib/ledger/store';
import { MemoryStore } from '../../src/lib/ledger/testing/memory-store';
import { ForkStore } from '../../src/lib/ledger/fork/fork-store';
import { StoreForkSource } from '../../src/lib/ledger/fork/store-source';
import { testOrigin } from '../../src/lib/ledger/fork/testing';
import { freshDexieStore } from '../../src/lib/storage/testing/fixtures';

export const STORES: [string, () => Promise<Store>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  ['DexieStore', freshDexieStore],
  ['SqliteStore', () => openSqliteStore()],
  // A fork whose source holds nothing at the fork block behaves as the store below it.
  ['ForkStore', async () => new ForkStore(await openSqliteStore(), new StoreForkSource(new MemoryStore(), testOrigin(0)))]
];
