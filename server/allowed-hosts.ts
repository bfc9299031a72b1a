// Which `Host` headers the Node host answers: its bound address and the loopback names, with its
// port, plus names given with `--allow-host`. A page on another site that re-points its own DNS
// name at 127.0.0.1 (DNS rebinding) still sends its own name as Host, so it is refused.

export interface HostPolicy {
  /** Every Host is accepted (`--allow-host '*'`, e.g. behind a reverse proxy that checks it). */
  readonly any: boolean;
  allows(host: string | undefined): boolean;
  readonly description: string;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);

export class HostListError extends Error {
  override readonly name = 'HostListError';
}

/** `::1` → `[::1]`: the form an IPv6 address takes in a Host header. */
function hostForm(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address.toLowerCase();
}

/** `name` (any of this host's port) or `name:port`; nothing with a scheme or a path. */
function checkEntry(entry: string): string {
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(entry)) {
    throw new HostListError(`--allow-host: "${entry}" is not a host name (expected name or name:port, e.g. my-laptop.local or 192.168.1.20:3000)`);
  }
  return entry.toLowerCase();
}

export function hostPolicy(options: { bind: string; port: number; allow?: readonly string[] }): HostPolicy {
  const extra = (options.allow ?? []).flatMap((e) => e.split(',')).map((e) => e.trim()).filter(Boolean);
  if (extra.includes('*')) return { any: true, allows: () => true, description: 'any Host (--allow-host *)' };
  const names = new Set(LOOPBACK_NAMES);
  if (!WILDCARD_BINDS.has(options.bind)) names.add(hostForm(options.bind));
  const accepted = new Set<string>();
  for (const name of [...names, ...extra.map(checkEntry)]) {
    if (/:\d+$/.test(name)) accepted.add(name); // a port given: that one only
    else {
      accepted.add(`${name}:${options.port}`);
      if (options.port === 80) accepted.add(name); // the default port is left out of Host
    }
  }
  return {
    any: false,
    description: [...accepted].join(', '),
    allows: (host) => host !== undefined && accepted.has(host.toLowerCase())
  };
}
