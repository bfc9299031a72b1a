// Which browser origins may call the Node host (`--cors`): by default pages served from this
// machine's loopback addresses only, so a page of any other site can neither read answers nor
// write (see guard.ts).

/** Pages on this machine, any port. */
export const LOOPBACK_ORIGINS: readonly string[] = ['http://127.0.0.1:*', 'http://localhost:*', 'http://[::1]:*'];

export interface OriginPolicy {
  /** Every origin is allowed (`--cors '*'`, chosen explicitly). */
  readonly any: boolean;
  allows(origin: string): boolean;
  /** For the start-up line. */
  readonly description: string;
}

interface Pattern {
  scheme: string;
  host: string;
  /** null: any port, the scheme's default included. */
  port: string | null;
}

export class OriginListError extends Error {
  override readonly name = 'OriginListError';
}

/** `scheme://host[:port|:*]`, nothing else (no path, no wildcard host). */
function parsePattern(text: string): Pattern {
  const anyPort = /:\*$/.test(text);
  let url: URL;
  try {
    url = new URL(anyPort ? text.slice(0, -2) : text);
  } catch {
    throw new OriginListError(`--cors: "${text}" is not an origin (expected scheme://host[:port], e.g. http://localhost:5173 or http://localhost:*)`);
  }
  if (url.origin === 'null' || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new OriginListError(`--cors: "${text}" is not an origin (expected scheme://host[:port] with no path)`);
  }
  if (anyPort && url.port) throw new OriginListError(`--cors: "${text}" names a port and "*"`);
  return { scheme: url.protocol, host: url.hostname, port: anyPort ? null : url.port };
}

function matches(pattern: Pattern, origin: URL): boolean {
  if (pattern.scheme !== origin.protocol || pattern.host !== origin.hostname) return false;
  return pattern.port === null || pattern.port === origin.port;
}

/** The policy of `--cors`: a comma list of origins (`:*` for any port), or `*` for every origin. */
export function originPolicy(list: string | readonly string[] = LOOPBACK_ORIGINS): OriginPolicy {
  const entries = (typeof list === 'string' ? list.split(',') : [...list]).map((e) => e.trim()).filter(Boolean);
  if (entries.includes('*')) {
    if (entries.length > 1) throw new OriginListError('--cors: "*" allows every origin; give it alone');
    return { any: true, allows: () => true, description: 'any origin (--cors *)' };
  }
  if (entries.length === 0) throw new OriginListError('--cors: give at least one origin, or "*"');
  const patterns = entries.map(parsePattern);
  return {
    any: false,
    description: entries.join(', '),
    allows(origin) {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false; // "null" (sandboxed frames, file: pages) and anything unparsable
      }
      // Browsers send the origin in its serialised form; anything else did not come from a page.
      if (url.origin === 'null' || url.origin !== origin) return false;
      return patterns.some((p) => matches(p, url));
    }
  };
}
