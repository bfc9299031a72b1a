// JSON-safe copies of ledger values: bigints become decimal strings.
export function jsonSafe<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value, bigintAsString));
}

const bigintAsString = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/** A JSON response of a ledger value, bigints as decimal strings: serialised once, where jsonSafe and jsonResponse do it twice. */
export function jsonSafeResponse(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value ?? null, bigintAsString), { status, headers: { 'content-type': 'application/json' } });
}

/** An answer already serialised: one a ledger memo keeps is stringified once, not at every request it answers again. */
export class JsonText {
  constructor(readonly text: string) {}
}

export const jsonText = (value: unknown) => new JsonText(JSON.stringify(value ?? null));

/** A JSON response built from a string body (cheaper than Response.json's stream on every host). */
export function jsonResponse(value: unknown, status = 200): Response {
  const body = value instanceof JsonText ? value.text : JSON.stringify(value ?? null);
  return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}
