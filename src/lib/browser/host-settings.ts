// Settings of the browser hosts that must survive the worker being stopped when idle: today the
// block mode. Kept in a small database of their own, not in the ledger (so never exported).
import { Dexie, type Table } from 'dexie';
import type { BlockMode } from '../ledger/chain/config';

const SETTINGS_DB = 'opalite-host-settings';

interface Setting {
  key: string;
  value: unknown;
}

class SettingsDatabase extends Dexie {
  declare settings: Table<Setting, string>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ settings: 'key' });
  }
}

export interface HostSettings {
  blockMode(): Promise<BlockMode | undefined>;
  setBlockMode(mode: BlockMode): Promise<void>;
  close(): void;
}

/** The settings store; any failure to read or write falls back to defaults (settings are a convenience). */
export function openHostSettings(ledgerDbName: string): HostSettings {
  const db = new SettingsDatabase(`${SETTINGS_DB}:${ledgerDbName}`);
  return {
    async blockMode() {
      try {
        return (await db.settings.get('blockMode'))?.value as BlockMode | undefined;
      } catch {
        return undefined;
      }
    },
    async setBlockMode(mode) {
      await db.settings.put({ key: 'blockMode', value: mode }).catch(() => {});
    },
    close() {
      db.close();
    }
  };
}
