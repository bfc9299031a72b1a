// Persistent storage: the browser may evict a site's IndexedDB under storage pressure unless the
// site is granted persistence. Opalite asks when the first valuable write happens (the first block
// holding a user's extrinsic), not on first visit. `persist()` exists in pages only, not in workers.

const ASKED_KEY = 'opalite.persist-asked';

interface StorageLike {
  persisted?(): Promise<boolean>;
  persist?(): Promise<boolean>;
}

function storageManager(): StorageLike | undefined {
  return typeof navigator === 'undefined' ? undefined : (navigator.storage as StorageLike | undefined);
}

/** Whether this origin's storage is persistent; null where the browser cannot say. */
export async function isPersisted(): Promise<boolean | null> {
  const storage = storageManager();
  return storage?.persisted ? storage.persisted() : null;
}

/**
 * Ask for persistence. `auto` asks at most once per browser profile (some browsers show a prompt);
 * a person's explicit request always asks.
 */
export async function requestPersistence(options: { auto?: boolean } = {}): Promise<boolean> {
  const storage = storageManager();
  if (!storage?.persist || !storage.persisted) return false;
  if (await storage.persisted()) return true;
  if (options.auto) {
    try {
      if (localStorage.getItem(ASKED_KEY)) return false;
      localStorage.setItem(ASKED_KEY, String(Date.now()));
    } catch {
      // No localStorage (privacy mode): ask anyway.
    }
  }
  return storage.persist();
}
