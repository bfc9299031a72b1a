// The built-in IPFS store's files, in the `files` table of the ledger database. Not ledger
// state: not in the Store's TABLES, not in dump()/replaceAll().
import { mapStorageError } from './errors';
import type { FileRecord, LedgerDatabase } from './schema';

export type { FileRecord } from './schema';

/** A file without its bytes, for listings. */
export type FileInfo = Omit<FileRecord, 'bytes'>;

export interface PutFileInput {
  cid: string;
  bytes: Uint8Array | Blob;
  type: string;
  name: string;
  /** Default: now. */
  createdAt?: number;
}

function sizeOf(bytes: Uint8Array | Blob): number {
  return bytes instanceof Uint8Array ? bytes.byteLength : bytes.size;
}

function infoOf({ bytes: _bytes, ...info }: FileRecord): FileInfo {
  return info;
}

export class FileStore {
  constructor(private readonly db: LedgerDatabase) {}

  /**
   * Store a file under its cid (replacing one stored under the same cid). Throws
   * StorageFullError when the site's quota is used up (nothing is written then).
   */
  async putFile(input: PutFileInput): Promise<FileRecord> {
    const record: FileRecord = {
      cid: input.cid,
      bytes: input.bytes,
      type: input.type,
      name: input.name,
      size: sizeOf(input.bytes),
      createdAt: input.createdAt ?? Date.now()
    };
    try {
      await this.db.files.put(record);
    } catch (e) {
      throw mapStorageError(e);
    }
    return record;
  }

  /**
   * Store the files not stored yet, in one transaction: all of them or, on a failure (a full
   * quota: StorageFullError), none. A file already stored under its cid is kept as it is.
   */
  async addFiles(inputs: readonly PutFileInput[]): Promise<void> {
    const now = Date.now();
    try {
      await this.db.transaction('rw', this.db.files, async () => {
        const stored = new Set(await this.db.files.where('cid').anyOf(inputs.map((input) => input.cid)).primaryKeys());
        const fresh = inputs.filter((input) => !stored.has(input.cid));
        await this.db.files.bulkAdd(fresh.map((input) => ({ ...input, size: sizeOf(input.bytes), createdAt: input.createdAt ?? now })));
      });
    } catch (e) {
      throw mapStorageError(e);
    }
  }

  getFile(cid: string): Promise<FileRecord | undefined> {
    return Promise.resolve(this.db.files.get(cid));
  }

  /** Whether a file is stored, without reading its bytes (a primary-key count). */
  async hasFile(cid: string): Promise<boolean> {
    return (await this.db.files.where('cid').equals(cid).count()) > 0;
  }

  /** Newest first (ties: greater cid first), at most `limit`, without bytes. */
  async listFiles(limit: number): Promise<FileInfo[]> {
    const n = Math.floor(limit);
    if (!(n > 0)) return [];
    let query = this.db.files.orderBy('createdAt').reverse();
    if (Number.isFinite(n)) query = query.limit(n);
    return (await query.toArray()).map(infoOf);
  }

  /** How many files are stored (an index count, no rows read). */
  countFiles(): Promise<number> {
    return Promise.resolve(this.db.files.count());
  }

  async deleteFile(cid: string): Promise<void> {
    await this.db.files.delete(cid);
  }
}
