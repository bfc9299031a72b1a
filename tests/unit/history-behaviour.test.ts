// The state history of the Store port (HistoryTx), the same checks against MemoryStore (the
// reference), DexieStore and SqliteStore.
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryRecord, Store } from '../../src/lib/ledger/store';
import { ALICE, BOB, CHARLIE, account, block, token } from '../../src/lib/storage/testing/fixtures';
import { STORES } from './every-store';

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** Changes of one block: Alice's balance, then a token minted, then Alice again. */
function blockChanges(n: number): HistoryRecord[] {
  return [
    { block: n, seq: 0, extrinsic: 0, table: 'accounts', key: ALICE, before: account(ALICE, BigInt(n)), after: account(ALICE, BigInt(n + 1)) },
    { block: n, seq: 1, extrinsic: 0, table: 'tokens', key: [1, n], before: undefined, after: token(1, n) },
    { block: n, seq: 2, extrinsic: 1, table: 'accounts', key: ALICE, before: account(ALICE, BigInt(n + 1)), after: account(ALICE, BigInt(n + 2)) },
    { block: n, seq: 3, extrinsic: null, table: 'meta', key: 'head', before: { key: 'head', value: n - 1 }, after: { key: 'head', value: n } }
  ];
}

describe.each(STORES)('%s history', (_name, makeStore) => {
  async function store(): Promise<Store> {
    const s = await makeStore();
    opened.push(s);
    return s;
  }

  async function withBlocks(s: Store, ...numbers: number[]): Promise<void> {
    for (const n of numbers) await s.write(async (tx) => tx.history.add(blockChanges(n)));
  }

  it('starts at block 0 with nothing kept', async () => {
    const s = await store();
    await s.read(async (tx) => {
      expect(await tx.history.start()).toBe(0);
      expect(await tx.history.changesOfBlock(1)).toEqual([]);
      expect(await tx.history.changeAfter('accounts', ALICE, 0)).toBeUndefined();
    });
  });

  it('keeps each change with its block, seq, extrinsic, key, before and after (bigints and absent rows too)', async () => {
    const s = await store();
    await withBlocks(s, 1, 2);
    const kept = await s.read((tx) => tx.history.changesOfBlock(2));
    expect(kept).toEqual(blockChanges(2));
    expect(kept[1].before).toBeUndefined();
    expect(typeof (kept[0].after as { free: unknown }).free).toBe('bigint');
  });

  it("finds a row's first change after a block: its before is the row as of that block", async () => {
    const s = await store();
    await withBlocks(s, 1, 2, 3);
    await s.read(async (tx) => {
      expect((await tx.history.changeAfter('accounts', ALICE, 1))?.before).toEqual(account(ALICE, 2n));
      expect(await tx.history.changeAfter('accounts', ALICE, 0)).toMatchObject({ block: 1, seq: 0 });
      expect(await tx.history.changeAfter('accounts', ALICE, 3)).toBeUndefined();
      expect(await tx.history.changeAfter('accounts', BOB, 0)).toBeUndefined();
      expect(await tx.history.changeAfter('tokens', [1, 2], 1)).toMatchObject({ block: 2, seq: 1, before: undefined });
      expect(await tx.history.changeAfter('tokens', [1, 2], 2)).toBeUndefined();
    });
  });

  it('lists the first change of every row changed after a block, of one table or of all', async () => {
    const s = await store();
    await withBlocks(s, 1, 2, 3);
    await s.read(async (tx) => {
      const all = await tx.history.firstChangesAfter(1);
      expect(all.map((r) => [r.block, r.seq])).toEqual([
        [2, 0],
        [2, 1],
        [2, 3],
        [3, 1]
      ]);
      const tokens = await tx.history.firstChangesAfter(1, 'tokens');
      expect(tokens.map((r) => r.key)).toEqual([
        [1, 2],
        [1, 3]
      ]);
      expect(await tx.history.firstChangesAfter(3)).toEqual([]);
    });
  });

  it("pages one row's changes newest first, before a place", async () => {
    const s = await store();
    await withBlocks(s, 1, 2, 3);
    await s.read(async (tx) => {
      const all = await tx.history.changesOfRow('accounts', ALICE, undefined, 10);
      expect(all.map((r) => [r.block, r.seq])).toEqual([
        [3, 2],
        [3, 0],
        [2, 2],
        [2, 0],
        [1, 2],
        [1, 0]
      ]);
      const page = await tx.history.changesOfRow('accounts', ALICE, { block: 2, seq: 2 }, 2);
      expect(page.map((r) => [r.block, r.seq])).toEqual([
        [2, 0],
        [1, 2]
      ]);
      expect(await tx.history.changesOfRow('accounts', BOB, undefined, 10)).toEqual([]);
    });
  });

  it("pages an account's changes newest first (its balance, tokens it owns or may spend, fungible rows naming it), and forgets them with the blocks", async () => {
    const s = await store();
    await withBlocks(s, 1, 2, 3);
    const bobs: HistoryRecord[] = [
      { block: 4, seq: 0, extrinsic: 0, table: 'tokens', key: [1, 1], before: token(1, 1), after: { ...token(1, 1), owner: BOB } },
      { block: 4, seq: 1, extrinsic: 1, table: 'meta', key: `ft:balance:2:${BOB}`, before: undefined, after: { key: `ft:balance:2:${BOB}`, value: 5n } },
      { block: 4, seq: 2, extrinsic: 1, table: 'meta', key: 'ft:supply:2', before: undefined, after: { key: 'ft:supply:2', value: 5n } },
      { block: 5, seq: 0, extrinsic: 0, table: 'tokens', key: [1, 3], before: token(1, 3), after: { ...token(1, 3), approved: BOB } }
    ];
    await s.write(async (tx) => tx.history.add(bobs.slice(0, 3)));
    await s.write(async (tx) => tx.history.add(bobs.slice(3)));
    await s.read(async (tx) => {
      const places = async (who: string, before?: { block: number; seq: number }, limit = 20) => (await tx.history.changesOfAccount(who, before, limit)).map((r) => [r.block, r.seq]);
      expect(await places(BOB)).toEqual([
        [5, 0],
        [4, 1],
        [4, 0]
      ]);
      expect(await tx.history.changesOfAccount(BOB, undefined, 1)).toEqual([bobs[3]]);
      expect(await places(BOB, { block: 4, seq: 1 }, 5)).toEqual([[4, 0]]);
      // Alice: her balance in blocks 1 to 3, her tokens minted there, the token she gave Bob and the one she let him spend.
      expect(await places(ALICE, undefined, 4)).toEqual([
        [5, 0],
        [4, 0],
        [3, 2],
        [3, 1]
      ]);
      expect(await places(CHARLIE)).toEqual([]);
    });
    await s.write(async (tx) => {
      await tx.history.delete({ after: 4 });
      await tx.history.delete({ upTo: 3 });
    });
    await s.read(async (tx) => expect((await tx.history.changesOfAccount(BOB, undefined, 20)).map((r) => [r.block, r.seq])).toEqual([[4, 1], [4, 0]]));
  });

  it('forgets the changes after a block (revert) and up to a block (pruning), and moves the start', async () => {
    const s = await store();
    await withBlocks(s, 1, 2, 3, 4);
    await s.write(async (tx) => {
      await tx.history.delete({ after: 3 });
      await tx.history.delete({ upTo: 1 });
      await tx.history.setStart(1);
    });
    await s.read(async (tx) => {
      expect(await tx.history.start()).toBe(1);
      expect(await tx.history.changesOfBlock(1)).toEqual([]);
      expect(await tx.history.changesOfBlock(4)).toEqual([]);
      expect(await tx.history.changesOfBlock(2)).toHaveLength(4);
      expect(await tx.history.changesOfBlock(3)).toHaveLength(4);
    });
  });

  it('keeps nothing of a write that fails, history included', async () => {
    const s = await store();
    await withBlocks(s, 1);
    await expect(
      s.write(async (tx) => {
        await tx.history.add(blockChanges(2));
        await tx.history.setStart(2);
        await tx.put('blocks', block(2));
        throw new Error('the block failed');
      })
    ).rejects.toThrow('the block failed');
    await s.read(async (tx) => {
      expect(await tx.history.changesOfBlock(2)).toEqual([]);
      expect(await tx.history.start()).toBe(0);
    });
  });

  it('refuses history writes in a read transaction', async () => {
    const s = await store();
    await expect(s.read(async (tx) => tx.history.add(blockChanges(1)))).rejects.toThrow(/write/);
  });

  it('starts history again at the imported head when the ledger is replaced', async () => {
    const s = await store();
    await withBlocks(s, 1, 2);
    const rows = await s.dump();
    rows.blocks = [block(0), block(1), block(7)];
    await s.replaceAll(rows);
    await s.read(async (tx) => {
      expect(await tx.history.start()).toBe(7);
      expect(await tx.history.changesOfBlock(1)).toEqual([]);
      expect(await tx.history.firstChangesAfter(0)).toEqual([]);
    });
  });
});
