import { describe, expect, it } from 'vitest';
import { openDexieStore } from './dexie-store';
import { FileStore } from './files';
import { LedgerDatabase } from './schema';
import { ALICE, account, freshDexieStore, freshOptions } from './testing/fixtures';

describe('FileStore', () => {
  it('puts, gets and checks files by cid, with the size taken from the bytes', async () => {
    const { files } = await freshDexieStore();
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const put = await files.putFile({ cid: 'bafyA', bytes, type: 'image/png', name: 'a.png', createdAt: 10 });
    expect(put).toEqual({ cid: 'bafyA', bytes, type: 'image/png', name: 'a.png', size: 5, createdAt: 10 });
    const got = (await files.getFile('bafyA'))!;
    expect(got.bytes).toBeInstanceOf(Uint8Array);
    expect([...(got.bytes as Uint8Array)]).toEqual([0, 1, 2, 250, 255]);
    expect(got).toEqual(put);
    expect(await files.hasFile('bafyA')).toBe(true);
    expect(await files.hasFile('bafyB')).toBe(false);
    expect(await files.getFile('bafyB')).toBeUndefined();

    // The same cid again replaces the row.
    await files.putFile({ cid: 'bafyA', bytes: new Uint8Array(2), type: 'image/png', name: 'b.png', createdAt: 11 });
    expect((await files.getFile('bafyA'))!.name).toBe('b.png');
    expect(await files.countFiles()).toBe(1);
    await files.deleteFile('bafyA');
    expect(await files.hasFile('bafyA')).toBe(false);
  });

  it('adds files in one transaction: the new ones, keeping those stored as they are', async () => {
    const { files } = await freshDexieStore();
    await files.putFile({ cid: 'bafyOld', bytes: new Uint8Array([1]), type: 'image/png', name: 'kept.png', createdAt: 1 });
    await files.addFiles([
      { cid: 'bafyOld', bytes: new Uint8Array([1]), type: 'text/plain', name: 'other.txt' },
      { cid: 'bafyNew', bytes: new Uint8Array([2, 3]), type: 'image/png', name: 'new.png' }
    ]);
    expect(await files.getFile('bafyOld')).toMatchObject({ type: 'image/png', name: 'kept.png', createdAt: 1 });
    expect(await files.getFile('bafyNew')).toMatchObject({ size: 2, type: 'image/png', name: 'new.png' });
    expect(await files.countFiles()).toBe(2);
  });

  it('stores Blobs', async () => {
    const { files } = await freshDexieStore();
    const blob = new Blob(['hello, ipfs'], { type: 'text/plain' });
    const put = await files.putFile({ cid: 'bafyT', bytes: blob, type: 'text/plain', name: 'h.txt' });
    expect(put.size).toBe(11);
    expect(typeof put.createdAt).toBe('number');
    const got = (await files.getFile('bafyT'))!;
    expect(got.bytes).toBeInstanceOf(Blob);
    expect(await (got.bytes as Blob).text()).toBe('hello, ipfs');
  });

  it('lists files newest first, at most `limit`, without their bytes', async () => {
    const { files } = await freshDexieStore();
    for (const [cid, createdAt] of [
      ['bafy1', 100],
      ['bafy2', 300],
      ['bafy3', 200],
      ['bafy4', 300]
    ] as const) {
      await files.putFile({ cid, bytes: new Uint8Array([1]), type: 'x/y', name: cid, createdAt });
    }
    const list = await files.listFiles(3);
    expect(list.map((f) => f.cid)).toEqual(['bafy4', 'bafy2', 'bafy3']);
    expect(list[0]).toEqual({ cid: 'bafy4', type: 'x/y', name: 'bafy4', size: 1, createdAt: 300 });
    expect('bytes' in list[0]).toBe(false);
    expect((await files.listFiles(100)).length).toBe(4);
    expect(await files.listFiles(0)).toEqual([]);
  });

  it('is separate from the ledger: not in dump, untouched by replaceAll', async () => {
    const options = freshOptions();
    const store = await openDexieStore(options);
    await store.files.putFile({ cid: 'bafyK', bytes: new Uint8Array([7]), type: 'x/y', name: 'k' });
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    const dump = await store.dump();
    expect(Object.keys(dump)).not.toContain('files');
    await store.replaceAll({ ...dump, accounts: [] });
    expect(await store.files.hasFile('bafyK')).toBe(true);
    store.close();

    // A FileStore can also be made over a database directly.
    const db = new LedgerDatabase(options);
    expect(await new FileStore(db).hasFile('bafyK')).toBe(true);
    db.close();
  });
});
