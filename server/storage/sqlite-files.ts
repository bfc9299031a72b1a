// The built-in IPFS store's files in the ledger's SQLite file (table `files`), with the methods
// of storage/files.ts FileStore. Not ledger state: not in dump()/replaceAll().
import type { FileInfo, FileRecord, PutFileInput } from '../../src/lib/storage/files';
import type { StatementCache } from './sqlite-tx';

/** A stored file; its bytes are always a Uint8Array here. */
export type SqliteFileRecord = FileRecord & { bytes: Uint8Array };

/** Statements run in a write transaction of their own, in the store's write queue; errors mapped. */
type WriteTransaction = <T>(work: (writer: StatementCache) => T) => Promise<T>;
/** Statements run in a read transaction on a reading connection. */
type ReadTransaction = <T>(work: (reader: StatementCache) => T) => Promise<T>;

const INFO_COLUMNS = 'cid, type, name, size, createdAt';

export class SqliteFileStore {
  constructor(
    private readonly writeTransaction: WriteTransaction,
    private readonly readTransaction: ReadTransaction
  ) {}

  /** Store a file under its cid (replacing one stored under it). Throws DiskFullError when the disk is full. */
  async putFile(input: PutFileInput): Promise<SqliteFileRecord> {
    const bytes = input.bytes instanceof Uint8Array ? input.bytes : new Uint8Array(await input.bytes.arrayBuffer());
    const record: SqliteFileRecord = {
      cid: input.cid,
      bytes,
      type: input.type,
      name: input.name,
      size: bytes.byteLength,
      createdAt: input.createdAt ?? Date.now()
    };
    await this.writeTransaction((writer) =>
      writer
        .get(`INSERT OR REPLACE INTO files (cid, bytes, type, name, size, createdAt) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(record.cid, bytes, record.type, record.name, record.size, record.createdAt)
    );
    return record;
  }

  /** Store the files not stored yet, in one transaction (all or none); a file already stored under its cid is kept as it is. */
  async addFiles(inputs: readonly PutFileInput[]): Promise<void> {
    const now = Date.now();
    const rows = await Promise.all(
      inputs.map(async (input) => ({ ...input, bytes: input.bytes instanceof Uint8Array ? input.bytes : new Uint8Array(await input.bytes.arrayBuffer()) }))
    );
    await this.writeTransaction((writer) => {
      const insert = writer.get(`INSERT OR IGNORE INTO files (cid, bytes, type, name, size, createdAt) VALUES (?, ?, ?, ?, ?, ?)`);
      for (const row of rows) insert.run(row.cid, row.bytes, row.type, row.name, row.bytes.byteLength, row.createdAt ?? now);
    });
  }

  getFile(cid: string): Promise<SqliteFileRecord | undefined> {
    return this.readTransaction((reader) => {
      const row = reader.get(`SELECT ${INFO_COLUMNS}, bytes FROM files WHERE cid = ?`).get(cid) as
        | (FileInfo & { bytes: Buffer })
        | undefined;
      if (!row) return undefined;
      // A plain Uint8Array, as the other file stores give (better-sqlite3 answers a Buffer).
      const bytes = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      return { ...row, bytes };
    });
  }

  /** Whether a file is stored, without reading its bytes. */
  hasFile(cid: string): Promise<boolean> {
    return this.readTransaction((reader) => reader.get('SELECT 1 FROM files WHERE cid = ?').get(cid) !== undefined);
  }

  /** Newest first (ties: greater cid first), at most `limit`, without bytes. */
  listFiles(limit: number): Promise<FileInfo[]> {
    const n = Math.floor(limit);
    if (!(n > 0)) return Promise.resolve([]);
    return this.readTransaction(
      (reader) =>
        reader
          .get(`SELECT ${INFO_COLUMNS} FROM files ORDER BY createdAt DESC, cid DESC LIMIT ?`)
          .all(Number.isFinite(n) ? n : -1) as FileInfo[]
    );
  }

  countFiles(): Promise<number> {
    return this.readTransaction((reader) => reader.get('SELECT count(*) FROM files').pluck().get() as number);
  }

  async deleteFile(cid: string): Promise<void> {
    await this.writeTransaction((writer) => writer.get('DELETE FROM files WHERE cid = ?').run(cid));
  }
}
