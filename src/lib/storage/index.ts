// The storage layer: the ledger Store on IndexedDB (Dexie), its schema, and the file store.
export { DexieStore, openDexieStore, type OpenDexieStoreOptions } from './dexie-store';
export { StorageFullError, isQuotaError } from './errors';
export { FileStore, type FileInfo, type PutFileInput } from './files';
export {
  DB_SCHEMA_VERSION,
  DEFAULT_DB_NAME,
  LEDGER_TABLES,
  FILES_TABLE,
  LedgerDatabase,
  SCHEMA_VERSIONS,
  type FileRecord,
  type LedgerDatabaseOptions,
  type SchemaVersion
} from './schema';
