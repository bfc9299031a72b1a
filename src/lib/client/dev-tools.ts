// Where the ledger's dev tools (impersonation, set balance, seal blocks) may be offered, and the
// person's input to them. Offered on the built-in sandbox or an Opalite host on this machine; a
// remote service never impersonates, and the app never offers it there, whatever it says.
import { isLoopbackHost } from '../codec/impersonation';
import { MAX_SEAL_COUNT } from '../limits';
import { unitAmount } from './pieces';

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

/** A whole number of blocks from 1 to MAX_SEAL_COUNT; throws a readable error otherwise. */
export function sealCount(text: string): number {
  const trimmed = text.trim();
  const count = /^\d{1,5}$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!(count >= 1 && count <= MAX_SEAL_COUNT)) throw new Error(`Blocks to seal: a whole number from 1 to ${MAX_SEAL_COUNT}`);
  return count;
}

/** A balance in whole units as typed (`1000`, `2.5`, `0`), as the decimal string /dev/set-balance takes; throws a readable error. */
export function balanceAmount(text: string, decimals: number): string {
  // Zero empties an account (unitAmount refuses it: a transfer of nothing is a mistake, a balance of nothing is not).
  if (/^\s*0+(\.0*)?\s*$/.test(text)) return '0';
  return unitAmount(text, decimals, 'Balance');
}
