// Where the ledger's dev tools (impersonation, set balance, seal blocks) may be offered: the
// built-in sandbox or an Opalite host on this machine. A remote service never impersonates, and
// the app never offers it there, whatever it says. (Loaded with the first page: no key library here.)
import { isLoopbackHost } from '../codec/impersonation';

export type DevToolsPlace = 'sandbox' | 'local' | 'remote';

/** `baseUrl` is the built-in sandbox (`sandbox` true), a host on this machine, or remote. */
export function devToolsPlace(baseUrl: string, sandbox: boolean): DevToolsPlace {
  if (sandbox) return 'sandbox';
  try {
    return isLoopbackHost(new URL(baseUrl).hostname) ? 'local' : 'remote';
  } catch {
    return 'remote';
  }
}
