// What a connecting app posts to Opalite's /connect window, checked before anything acts on it:
// the version, the type, and every field's type and size. A message that is not for us (another
// version, an unknown type, no usable id) is ignored; a request or sign message with a usable id
// but a bad field is answered, so the app's call ends with a clear error instead of hanging.
// A hello's app name is only shown, so a bad one is dropped rather than refused.
// Payload fields are bounded here and checked in full by the sandbox's /extrinsic/decode.
import { HASH_HEX_LENGTH, MAX_ACCOUNT_FIELD_LENGTH, MAX_CALL_HEX_LENGTH, MAX_NUMBER_HEX_LENGTH, MAX_SHORT_TEXT_LENGTH, MAX_SIGNED_EXTENSIONS } from '../limits';
import type { SignerPayloadJSON } from '../codec/payload';
import {
  CONNECT_VERSION,
  MAX_APP_NAME_LENGTH,
  MAX_SIGN_RAW_DATA_LENGTH,
  MAX_BRIDGE_BODY_BYTES,
  MAX_BRIDGE_HEADERS,
  MAX_BRIDGE_PATH_LENGTH,
  MAX_HEADER_NAME_LENGTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_METHOD_LENGTH,
  type ClientMessage,
  type HeaderList,
  type RawPayload
} from './protocol';

/** A request or sign message with a usable id and a bad field: answered with `status`. */
export interface InvalidMessage {
  type: 'invalid';
  of: 'request' | 'sign' | 'sign-raw';
  id: number;
  status: 400 | 413;
  problem: string;
}

export const BRIDGE_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value a Headers object takes: no control characters but tab. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

class Problem extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 = 400
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request id the app can match an answer to: a positive safe integer. */
function requestId(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

function boundedText(value: unknown, name: string, max: number): string {
  if (typeof value !== 'string') throw new Problem(`${name} must be a string`);
  if (value.length > max) throw new Problem(`${name} must be at most ${max} characters long`);
  return value;
}

function method(value: unknown): string {
  const text = boundedText(value, 'method', MAX_METHOD_LENGTH).toUpperCase();
  if (!BRIDGE_METHODS.includes(text)) throw new Problem(`method must be one of ${BRIDGE_METHODS.join(', ')}`);
  return text;
}

/** A path on Opalite's origin: starts with one `/` (`//host` would name another origin). */
function path(value: unknown): string {
  const text = boundedText(value, 'path', MAX_BRIDGE_PATH_LENGTH);
  if (!text.startsWith('/') || text.startsWith('//') || text.includes('\\')) throw new Problem('path must be a path on the Opalite origin, starting with a single /');
  return text;
}

function headers(value: unknown): HeaderList {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Problem('headers must be a list of [name, value] pairs');
  if (value.length > MAX_BRIDGE_HEADERS) throw new Problem(`headers must have at most ${MAX_BRIDGE_HEADERS} entries`);
  return value.map((pair: unknown) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new Problem('each header must be a [name, value] pair');
    const name = boundedText(pair[0], 'a header name', MAX_HEADER_NAME_LENGTH);
    const text = boundedText(pair[1], `header ${name}`, MAX_HEADER_VALUE_LENGTH);
    if (!HEADER_NAME.test(name)) throw new Problem('a header name holds characters a header name cannot');
    if (!HEADER_VALUE.test(text)) throw new Problem(`header ${name} holds control characters`);
    return [name.toLowerCase(), text] as [string, string];
  });
}

function body(value: unknown): ArrayBuffer | null {
  if (value === undefined || value === null) return null;
  if (!(value instanceof ArrayBuffer)) throw new Problem('body must be an ArrayBuffer or null');
  if (value.byteLength > MAX_BRIDGE_BODY_BYTES) throw new Problem(`body is larger than ${MAX_BRIDGE_BODY_BYTES} bytes, the most the bridge carries`, 413);
  return value;
}

const PAYLOAD_TEXT_FIELDS: Record<string, number> = {
  address: MAX_ACCOUNT_FIELD_LENGTH,
  blockHash: HASH_HEX_LENGTH,
  blockNumber: MAX_NUMBER_HEX_LENGTH,
  era: MAX_NUMBER_HEX_LENGTH,
  genesisHash: HASH_HEX_LENGTH,
  method: MAX_CALL_HEX_LENGTH,
  nonce: MAX_NUMBER_HEX_LENGTH,
  specVersion: MAX_NUMBER_HEX_LENGTH,
  tip: MAX_NUMBER_HEX_LENGTH,
  transactionVersion: MAX_NUMBER_HEX_LENGTH
};

/** The payload's twelve fields, each of its type and within its size; other keys are dropped. */
function signerPayload(value: unknown): SignerPayloadJSON {
  if (!isRecord(value)) throw new Problem('payload must be a signer payload object (SignerPayloadJSON)');
  const copy: Record<string, unknown> = {};
  for (const [field, max] of Object.entries(PAYLOAD_TEXT_FIELDS)) copy[field] = boundedText(value[field], `payload.${field}`, max);
  const extensions = value.signedExtensions;
  if (!Array.isArray(extensions)) throw new Problem('payload.signedExtensions must be a list of names');
  if (extensions.length > MAX_SIGNED_EXTENSIONS) throw new Problem(`payload.signedExtensions must have at most ${MAX_SIGNED_EXTENSIONS} names`);
  copy.signedExtensions = extensions.map((name) => boundedText(name, 'a signed extension name', MAX_SHORT_TEXT_LENGTH));
  if (typeof value.version !== 'number' || !Number.isSafeInteger(value.version)) throw new Problem('payload.version must be an integer');
  copy.version = value.version;
  return copy as unknown as SignerPayloadJSON;
}

/** polkadot{.js}'s SignerPayloadRaw: the address, the data (0x hex or text), and `bytes` or `payload`. */
function rawPayload(value: unknown): RawPayload {
  if (!isRecord(value)) throw new Problem('raw must be { address, data, type } (SignerPayloadRaw)');
  const raw: RawPayload = { address: boundedText(value.address, 'raw.address', MAX_ACCOUNT_FIELD_LENGTH), data: boundedText(value.data, 'raw.data', MAX_SIGN_RAW_DATA_LENGTH) };
  if (value.type === 'bytes' || value.type === 'payload') raw.type = value.type;
  else if (value.type !== undefined) throw new Problem('raw.type must be "bytes" (or "payload", which Opalite refuses: sign a transaction with signPayload)');
  return raw;
}

/** The name an app gives itself, if it is one line of printable text of a sensible length; else none. */
function appName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  // Control and direction characters could make the name read as something it is not.
  if (name === '' || name.length > MAX_APP_NAME_LENGTH || /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(name)) return undefined;
  return name;
}

/**
 * The message `data` as Opalite may act on it, an InvalidMessage to answer, or null to ignore
 * (not a v1 message of a known type, or a request without an id to answer).
 */
export function readClientMessage(data: unknown): ClientMessage | InvalidMessage | null {
  if (!isRecord(data) || data.v !== CONNECT_VERSION) return null;
  switch (data.type) {
    case 'hello': {
      const name = appName(data.appName);
      return name === undefined ? { v: 1, type: 'hello' } : { v: 1, type: 'hello', appName: name };
    }
    case 'bye':
      return { v: 1, type: 'bye' };
    case 'request':
    case 'sign':
    case 'sign-raw': {
      const id = requestId(data.id);
      if (id === null) return null;
      try {
        if (data.type === 'sign') return { v: 1, type: 'sign', id, payload: signerPayload(data.payload) };
        if (data.type === 'sign-raw') return { v: 1, type: 'sign-raw', id, raw: rawPayload(data.raw) };
        return { v: 1, type: 'request', id, method: method(data.method), path: path(data.path), headers: headers(data.headers), body: body(data.body) };
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        return { type: 'invalid', of: data.type, id, status: error.status, problem: error.message };
      }
    }
    default:
      return null;
  }
}
