// The wire constant of impersonation (a sandbox's dev tool): shared by the ledger, which admits it
// only when the host allows, and the app, which submits it with `Authorization: Impersonate <address>`.

/**
 * The signature an impersonated extrinsic carries (sr25519 type byte, 64 zero bytes): it verifies
 * for no key, so the extrinsic could never be valid on any chain, this one's source included.
 */
export const IMPERSONATION_SIGNATURE = '0x01' + '00'.repeat(64);

/** The Authorization scheme of impersonation: `Impersonate <address>` (Anvil's impersonateAccount). */
export const IMPERSONATE_SCHEME = 'Impersonate';

/** The Authorization header that asks a sandbox to sign as `address` without its key. */
export function impersonateHeader(address: string): string {
  return `${IMPERSONATE_SCHEME} ${address}`;
}

/** Host names of this machine, as a URL's hostname spells them: impersonation is answered only there (or in the browser's own sandbox). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost');
}
