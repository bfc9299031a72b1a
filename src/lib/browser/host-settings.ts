// Settings of the browser hosts that must survive the worker being stopped when idle: the block
// mode, the history retention and the impersonation switch (of one chain: a new one starts with its default). Kept in a small database of their own, not in the ledger (so never exported).
import { Dexie, type Table } from '../storage/dexie';
import type { BlockMode } from '../ledger/chain/config';
import type { HistoryPolicy } from '../ledger/history/record';

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
  history(): Promise<HistoryPolicy | undefined>;
  setHistory(policy: HistoryPolicy): Promise<void>;
  impersonation(): Promise<ImpersonationSetting | undefined>;
  setImpersonation(setting: ImpersonationSetting): Promise<void>;
  close(): void;
}

/** Impersonation switched on or off for the chain of this genesis hash. */
export interface ImpersonationSetting {
  genesisHash: string;
  enabled: boolean;
}

export function isHistoryPolicy(value: unknown): value is HistoryPolicy {
  if (typeof value !== 'object' || value === null) return false;
  const keep = (value as { keepBlocks?: unknown }).keepBlocks;
  return keep === null || (Number.isSafeInteger(keep) && (keep as number) >= 0);
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
    async history() {
      try {
        const value = (await db.settings.get('history'))?.value as HistoryPolicy | undefined;
        return isHistoryPolicy(value) ? value : undefined;
      } catch {
        return undefined;
      }
    },
    async setHistory(policy) {
      await db.settings.put({ key: 'history', value: policy }).catch(() => {});
    },
    async impersonation() {
      try {
        const value = (await db.settings.get('impersonation'))?.value as Partial<ImpersonationSetting> | undefined;
        return typeof value?.genesisHash === 'string' && typeof value.enabled === 'boolean' ? { genesisHash: value.genesisHash, enabled: value.enabled } : undefined;
      } catch {
        return undefined;
      }
    },
    async setImpersonation(setting) {
      await db.settings.put({ key: 'impersonation', value: setting }).catch(() => {});
    },
    close() {
      db.close();
    }
  };
}
