// Reading request bodies: JSON (empty is `{}`) and the file of a multipart form, each failure a
// ValidationError in words. Every body is read with a byte budget while it streams, so an
// oversized one is refused (413) having buffered at most the budget, never the whole body.
import { ApiError, payloadTooLarge, validationError } from './errors';
import { MAX_JSON_DEPTH, MULTIPART_OVERHEAD_BYTES } from '../limits';
import { readCapped } from '../codec/read-capped';

/** The declared Content-Length, or null when absent or not a plain decimal number. */
function declaredLength(request: Request): number | null {
  const header = request.headers.get('content-length');
  return header !== null && /^\d{1,16}$/.test(header.trim()) ? Number(header) : null;
}

/**
 * A host that reads bodies more cheaply than through `request.body` puts its reader on the
 * request under this key (the Node host reads the socket directly: a server-side Request would
 * wrap it in a web stream per request). It resolves to the bytes, or to null once they pass
 * `maxBytes`, having stopped reading; what happens to the rest of the body is the host's concern.
 */
export const BODY_READER = Symbol.for('opalite.bodyReader');
export type BodyReader = (maxBytes: number) => Promise<Uint8Array | null>;

function hostBodyReader(request: Request): BodyReader | undefined {
  return (request as Request & { [BODY_READER]?: BodyReader })[BODY_READER];
}

/**
 * The body's bytes, at most `maxBytes` of them: a declared length over the budget is refused before
 * reading, and an undeclared (chunked) one is cut off as soon as it passes the budget.
 */
export async function readBodyBytes(request: Request, maxBytes: number, what?: string): Promise<Uint8Array> {
  const declared = declaredLength(request);
  const hostReader = hostBodyReader(request);
  if (declared !== null && declared > maxBytes) {
    if (!hostReader) void request.body?.cancel().catch(() => {});
    throw payloadTooLarge(maxBytes, what);
  }
  if (!hostReader && !request.body) return new Uint8Array(0);
  const bytes = await (hostReader ? hostReader(maxBytes) : readCapped(request.body!, maxBytes)).catch(unreadable);
  if (!bytes) throw payloadTooLarge(maxBytes, what);
  return bytes;
}

/** A body whose stream failed: the client closed or broke the connection before it ended (no bug, nothing to log). */
function unreadable(error: unknown): never {
  if (error instanceof ApiError) throw error;
  throw validationError('The request body could not be read: the connection closed before it ended');
}

/** The body as UTF-8 text (invalid sequences replaced, as `Request.text()` does), within the budget. */
export async function bodyText(request: Request, maxBytes: number, what?: string): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes, what));
}

/**
 * The nesting depth of a JSON text, counted without parsing (brackets outside strings), stopping as
 * soon as it passes `limit`: later recursion over the value (validation, echo, copies) is bounded.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** JSON text parsed; an empty text is `{}`; deeper than MAX_JSON_DEPTH is refused before parsing. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') return {};
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw validationError(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch {
    throw validationError('Request body is not valid JSON');
  }
}

/** The body parsed as JSON, at most `maxBytes` of it; an empty body is `{}`. */
export async function jsonBody(request: Request, maxBytes: number): Promise<unknown> {
  return parseJsonText(await bodyText(request, maxBytes));
}

/**
 * The multipart form's field `file` (a File, or a string when sent as a plain field), or null. The
 * body is read within `maxFileBytes` plus room for the framing before the form is parsed.
 */
export async function formFile(request: Request, maxFileBytes: number): Promise<File | string | null> {
  const bytes = await readBodyBytes(request, maxFileBytes + MULTIPART_OVERHEAD_BYTES, 'The upload');
  let form: FormData;
  try {
    form = await new Response(bytes as BodyInit, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
  } catch {
    throw validationError('The multipart body could not be read');
  }
  return form.get('file') as File | string | null;
}
