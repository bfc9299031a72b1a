// Answers a service worker's ledger requests (the REST API and the file gateway) from the browser
// host. The browser stops an idle worker and its globals vanish, so the host is opened lazily on
// the first request that needs it, and again after the database connection closes.
// Both service workers use it: the app's own (worker.ts) and the sandbox worker of other apps.
import { ApiError, errorResponseFor } from '../api/errors';
import { ipfsPathCid } from '../api/routes/ipfs';
import { openBrowserHost, type BrowserHost } from './browser-host';
import { isApiPath } from '../client/sandbox-paths';

export interface LedgerResponderOptions {
  appVersion: string;
  /** The ledger database; the Opalite app's own when unset. */
  dbName?: string;
}

/** `<origin>/sandbox…` (the REST API) or `<origin>/ipfs/<cid>` (uploaded files) of this origin. */
export function isLedgerRequest(url: URL, origin: string): boolean {
  if (url.origin !== origin) return false;
  return isApiPath(url.pathname) || ipfsPathCid(url.pathname) !== null;
}

/** 503: the ledger cannot be opened here (the envelope every host builds, with this status). */
function errorEnvelope(status: number, message: string): Response {
  return errorResponseFor(new ApiError('SdkError', message, undefined, status));
}

/** Why the ledger could not be opened, in words a person can act on. */
function unavailable(error: unknown): Response {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'VersionError' || name === 'UpgradeError') {
    return errorEnvelope(503, 'A newer version of Opalite has upgraded the ledger database. Reload the page to update the app.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return errorEnvelope(503, `The built-in ledger could not be opened in this browser: ${message}`);
}

/** The answer to one ledger request; never rejects (every failure is an error envelope). */
export interface LedgerResponder {
  (request: Request): Promise<Response>;
  /**
   * Start opening the ledger now, without waiting for it: a worker that has just activated is
   * about to be asked, and the database opens meanwhile instead of inside the first request. A
   * failure is left for that request to report.
   */
  warm(): void;
}

export function ledgerResponder(options: LedgerResponderOptions): LedgerResponder {
  let opened: Promise<BrowserHost> | null = null;

  function host(): Promise<BrowserHost> {
    opened ??= openBrowserHost({
      kind: 'service-worker',
      appVersion: options.appVersion,
      dbName: options.dbName,
      onClosed: () => {
        // Deleted or upgraded under us: the next request opens the database afresh.
        const stale = opened;
        opened = null;
        void stale?.then((h) => h.close()).catch(() => {});
      }
    }).catch((error: unknown) => {
      opened = null;
      throw error;
    });
    return opened;
  }

  const answer = async (request: Request): Promise<Response> => {
    let open: BrowserHost;
    try {
      open = await host();
    } catch (error) {
      return unavailable(error);
    }
    try {
      return await open.host.handle(request);
    } catch (error) {
      // The handler answers its own errors; this is the host failing around it.
      return errorResponseFor(error);
    }
  };
  return Object.assign(answer, { warm: () => void host().catch(() => {}) });
}
