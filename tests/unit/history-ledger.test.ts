// History through the ledger, on MemoryStore, DexieStore and SqliteStore: a seeded run of random
// extrinsics (transfers, collections, mints, token transfers, nesting, burns, properties, allow
// lists, admins) records the whole state after every block; then every read at every earlier block
// (point reads of every row ever seen, and every index query) must answer what the head answered
// then, and a revert must give back exactly the state of its block.
import { afterEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/lib/ledger/chain/ledger';
import { keyOf, seededRandom } from '../../src/lib/ledger/testing/chain-kit';
import type { QueryTx, Store } from '../../src/lib/ledger/store';
import { STATE_TABLES, keyOf as rowKey } from '../../src/lib/ledger/store';
import type { Call, TokenRecord } from '../../src/lib/ledger/types';
import { STORES } from './every-store';

const SEEDS = ['//Alice', '//Bob', '//Charlie', '//Dave'];
const ACCOUNTS = SEEDS.map((seed) => keyOf(seed).address);
const UNIT = 10n ** 18n;

const opened: Store[] = [];
const ledgers: Ledger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
  for (const store of opened.splice(0)) store.close();
});

/** Everything a read at a block could ask, answered by `tx`: every state row, and every index query. */
async function observe(tx: QueryTx, rowKeys: Map<string, { table: (typeof STATE_TABLES)[number]; key: unknown }>, collections: number[]) {
  const rows: Record<string, unknown> = {};
  for (const [id, { table, key }] of rowKeys) rows[id] = (await tx.get(table, key as never)) ?? null;
  const lists: Record<string, unknown> = {};
  for (const account of ACCOUNTS) {
    lists[`owner:${account}`] = await tx.tokensOfOwner(account);
    for (const c of collections) {
      lists[`owner:${account}:${c}`] = await tx.tokensOfOwner(account, c);
      lists[`count:${account}:${c}`] = await tx.countOwned(c, account);
    }
  }
  for (const c of collections) {
    const ids = await tx.tokenIdsOfCollection(c);
    lists[`tokens:${c}`] = ids;
    lists[`allow:${c}`] = await tx.allowListOf(c);
    for (const id of ids) lists[`children:${c}:${id}`] = await tx.childrenOf(c, id);
  }
  lists.head = await tx.headBlock();
  return { rows, lists };
}

/** Every state row of the store now, by table and key (to learn which keys exist). */
async function stateKeys(store: Store, into: Map<string, { table: (typeof STATE_TABLES)[number]; key: unknown }>) {
  const dump = await store.dump();
  for (const table of STATE_TABLES) for (const row of dump[table]) into.set(`${table}:${JSON.stringify(rowKey(table, row as never))}`, { table, key: rowKey(table, row as never) });
}

describe.each(STORES)('%s: history through the ledger', (_name, makeStore) => {
  it('reads at every earlier block answer what the head answered then; revert gives back its block exactly', async () => {
    const store = await makeStore();
    opened.push(store);
    const ledger = await Ledger.open({ store, soleWriter: true });
    ledgers.push(ledger);
    const random = seededRandom(17);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const collections: number[] = [];

    const run = async (seedIndex: number, call: Call) => {
      const { address, key } = keyOf(SEEDS[seedIndex]);
      const { included } = await ledger.signAndSubmit(address, call, key);
      return included;
    };
    const tokensOf = async () => store.read(async (tx) => (await Promise.all(collections.map(async (c) => (await tx.tokenIdsOfCollection(c)).map((t) => [c, t] as const)))).flat());

    const history: { head: { number: number; hash: string }; seen: Awaited<ReturnType<typeof observe>> }[] = [];
    const rowKeys = new Map<string, { table: (typeof STATE_TABLES)[number]; key: unknown }>();
    const steps: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < 45; i++) {
      steps.push(async () => {
        const tokens = await tokensOf();
        const choice = collections.length === 0 ? 0 : Math.floor(random() * 8);
        const who = Math.floor(random() * SEEDS.length);
        if (choice === 0) {
          await run(who, { name: 'unique.createCollectionEx', args: { data: { mode: 'NFT', decimals: 0, name: `C${i}`, description: 'd', tokenPrefix: 'C', properties: [], tokenPropertyPermissions: [{ key: 'k', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }], adminList: [] } } } as Call);
          collections.push((await store.read((tx) => tx.get('meta', 'createdCollectionCount')))!.value as number);
        } else if (choice === 1 || tokens.length === 0) {
          const c = pick(collections);
          const owner = await store.read(async (tx) => (await tx.get('collections', c))!.owner);
          await run(ACCOUNTS.indexOf(owner), { name: 'unique.createItem', args: { collectionId: c, owner: pick(ACCOUNTS), properties: [{ key: 'k', value: `v${i}` }] } } as Call);
        } else if (choice === 2) {
          await run(who, { name: 'balances.transferKeepAlive', args: { dest: pick(ACCOUNTS), value: BigInt(1 + Math.floor(random() * 5)) * UNIT } } as Call);
        } else {
          const [c, t] = pick(tokens);
          const token = (await store.read((tx) => tx.get('tokens', [c, t]))) as TokenRecord;
          const holder = ACCOUNTS.indexOf(token.owner);
          if (holder < 0) return; // nested: its owner is a token; the next step picks again
          if (choice === 3) await run(holder, { name: 'unique.transfer', args: { to: pick(ACCOUNTS), collectionId: c, tokenId: t, value: 1n } } as Call);
          else if (choice === 4) {
            const [pc, pt] = pick(tokens);
            if (pc === c && pt === t) return;
            const parent = `0xf8238ccfff8ed887463fd5e0${pc.toString(16).padStart(8, '0')}${pt.toString(16).padStart(8, '0')}`;
            await run(holder, { name: 'unique.transfer', args: { to: parent, collectionId: c, tokenId: t, value: 1n } } as Call);
          } else if (choice === 5) await run(holder, { name: 'unique.burnItem', args: { collectionId: c, tokenId: t, value: 1n } } as Call);
          else if (choice === 6) await run(holder, { name: 'unique.setTokenProperties', args: { collectionId: c, tokenId: t, properties: [{ key: 'k', value: `w${i}` }] } } as Call);
          else {
            const owner = await store.read(async (tx) => (await tx.get('collections', c))!.owner);
            await run(ACCOUNTS.indexOf(owner), { name: 'unique.addToAllowList', args: { collectionId: c, address: pick(ACCOUNTS) } } as Call);
          }
        }
      });
    }
    const record = async () => {
      await stateKeys(store, rowKeys);
      const head = await ledger.head();
      history.push({ head, seen: await store.read((tx) => observe(tx, rowKeys, collections)) });
    };
    await record();
    for (const step of steps) {
      await step();
      await record();
    }
    expect(history.at(-1)!.head.number).toBeGreaterThan(30);

    // Rows that appeared later were absent before: observe every block again with every key seen.
    for (const entry of history) {
      const expected = entry.seen;
      const atBlock = await ledger.atBlock(entry.head.hash);
      const now = await atBlock.read((tx) => observe(tx, rowKeys, collections));
      for (const [id, value] of Object.entries(now.rows)) expect([id, value]).toEqual([id, expected.rows[id] ?? null]);
      for (const [id, value] of Object.entries(now.lists)) {
        if (id in expected.lists) expect([entry.head.number, id, value]).toEqual([entry.head.number, id, expected.lists[id]]);
      }
    }

    const middle = history[Math.floor(history.length / 2)];
    const dumpThen = await (async () => {
      const fresh = await ledger.atBlock(middle.head.hash);
      return fresh.read(async (tx) => Object.fromEntries(await Promise.all([...rowKeys].map(async ([id, { table, key }]) => [id, (await tx.get(table, key as never)) ?? null]))));
    })();
    await ledger.revert(middle.head);
    expect(await ledger.head()).toEqual(middle.head);
    const afterRevert = await store.read(async (tx) => Object.fromEntries(await Promise.all([...rowKeys].map(async ([id, { table, key }]) => [id, (await tx.get(table, key as never)) ?? null]))));
    expect(afterRevert).toEqual(dumpThen);
    const lists = (await store.read((tx) => observe(tx, rowKeys, collections))).lists;
    for (const [id, value] of Object.entries(lists)) if (id in middle.seen.lists && id !== 'head') expect([id, value]).toEqual([id, middle.seen.lists[id]]);
    // Blocks after it are gone; reads at them are refused; reads at earlier blocks still answer.
    await expect(ledger.atBlock(history.at(-1)!.head.hash)).rejects.toMatchObject({ name: 'HistoryError', kind: 'unknown' });
    const early = history[3];
    expect(await (await ledger.atBlock(early.head.hash)).read((tx) => observe(tx, rowKeys, collections)).then((o) => o.lists.head)).toEqual(early.seen.lists.head);
    // The chain goes on from the reverted head.
    await run(0, { name: 'balances.transferKeepAlive', args: { dest: ACCOUNTS[1], value: UNIT } } as Call);
    expect((await ledger.head()).number).toBe(middle.head.number + 1);
  }, 120_000);

  it('keeps only the blocks a retention asks for: older reads and reverts are refused as pruned', async () => {
    const store = await makeStore();
    opened.push(store);
    const ledger = await Ledger.open({ store, soleWriter: true, history: { keepBlocks: 3 } });
    ledgers.push(ledger);
    const heads: { number: number; hash: string }[] = [await ledger.head()];
    const { address, key } = keyOf('//Alice');
    for (let i = 0; i < 6; i++) {
      await (await ledger.signAndSubmit(address, { name: 'balances.transferKeepAlive', args: { dest: ACCOUNTS[1], value: UNIT } } as Call, key)).included;
      heads.push(await ledger.head());
    }
    expect(await ledger.historyStart()).toBe(3);
    await expect(ledger.atBlock(heads[2].hash)).rejects.toMatchObject({ kind: 'pruned' });
    await expect(ledger.revert(heads[2])).rejects.toMatchObject({ kind: 'pruned' });
    const bob = async (reads: { read: Ledger['read'] }) => reads.read(async (tx) => (await tx.get('accounts', ACCOUNTS[1]))!.free);
    expect((await bob(await ledger.atBlock(heads[3].hash))) + 3n * UNIT).toBe(await bob(ledger));
    await ledger.revert(heads[3]);
    expect(await bob(ledger)).toBe(await bob(await ledger.atBlock(heads[3].hash)));
  });
});
