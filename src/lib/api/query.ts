// Query strings as the real service (Express "extended") reads them: `k[]=a&k[]=b`, `k=a&k=b`
// and a single `k=a` all work; array fields normalise a single value to a one-element list.

export function parseQuery(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [rawKey, value] of params) {
    const isArrayKey = rawKey.endsWith('[]');
    const key = isArrayKey ? rawKey.slice(0, -2) : rawKey;
    const prior = out[key];
    if (prior === undefined) out[key] = isArrayKey ? [value] : value;
    else out[key] = Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return out;
}

/** `true`/`1` (any case) mean true; anything else false (the real service's AnyToBoolean). */
export function flag(value: unknown): boolean {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' ? ['true', '1'].includes(v.toLowerCase()) : v === true;
}
