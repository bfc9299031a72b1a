// JSON-safe copies of ledger values: bigints become decimal strings.
export function jsonSafe<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
}

/** A JSON response built from a string body (cheaper than Response.json's stream on every host). */
export function jsonResponse(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value ?? null), { status, headers: { 'content-type': 'application/json' } });
}
