// Substrate's signer payload (`ExtrinsicPayload` v4): what a signer signs for an extrinsic.
import { decodeEra } from './era';
import { blake2b256, fromHex, isHex, toHex } from './hash';
import { U128_MAX, compactBig, compactU32, concatBytes, u32 } from './scale';

/** polkadot's `SignerPayload.toPayload()`: hex strings, as the real REST service returns them. */
export interface SignerPayloadJSON {
  address: string;
  /** Checkpoint block of the era (the genesis hash for an immortal era). */
  blockHash: string;
  /** `0x` + 8 hex digits. */
  blockNumber: string;
  /** SCALE `ExtrinsicEra`: `0x00` or 2 bytes. */
  era: string;
  genesisHash: string;
  /** SCALE call bytes, not length-prefixed. */
  method: string;
  /** `0x` + 8 hex digits. */
  nonce: string;
  signedExtensions: string[];
  /** `0x` + 8 hex digits. */
  specVersion: string;
  /** `0x` + 32 hex digits. */
  tip: string;
  /** `0x` + 8 hex digits. */
  transactionVersion: string;
  version: number;
}

/** The signed extensions this ledger advertises, in the order their data is encoded. */
export const SIGNED_EXTENSIONS: readonly string[] = [
  'CheckSpecVersion',
  'CheckTxVersion',
  'CheckGenesis',
  'CheckMortality',
  'CheckNonce',
  'CheckWeight',
  'ChargeTransactionPayment'
];

/** The only extrinsic version this ledger builds and accepts. */
export const EXTRINSIC_VERSION = 4;

/** Payloads longer than this are signed through their blake2b-256 hash. */
export const MAX_UNHASHED_PAYLOAD = 256;

/** A signer payload that cannot be encoded; the message names the field. */
export class PayloadError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field ? `signerPayloadJSON.${field}` : 'signerPayloadJSON'} ${message}`);
    this.name = 'PayloadError';
    this.field = field;
  }
}

interface ParsedPayload {
  method: Uint8Array;
  era: Uint8Array;
  nonce: number;
  tip: bigint;
  specVersion: number;
  transactionVersion: number;
  genesisHash: Uint8Array;
  blockHash: Uint8Array;
}

/** The "extra" (in the extrinsic) and "additional signed" (only signed) data of each extension. */
const EXTENSIONS: Record<string, { extra?: (p: ParsedPayload) => Uint8Array; additional?: (p: ParsedPayload) => Uint8Array }> = {
  CheckSpecVersion: { additional: (p) => u32.enc(p.specVersion) },
  CheckTxVersion: { additional: (p) => u32.enc(p.transactionVersion) },
  CheckGenesis: { additional: (p) => p.genesisHash },
  CheckMortality: { extra: (p) => p.era, additional: (p) => p.blockHash },
  CheckNonce: { extra: (p) => compactU32.enc(p.nonce) },
  CheckWeight: {},
  ChargeTransactionPayment: { extra: (p) => compactBig.enc(p.tip) },
  // Extensions of Unique Network runtimes that carry no data (unit structs): known, so a payload
  // of a real network can be rebuilt and checked before it is signed.
  CheckNonZeroSender: {},
  CheckMaintenance: {},
  FakeTransactionFinalizer: {}
};

/** Extensions whose data this module can encode. */
export const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(Object.keys(EXTENSIONS));

const U32_MAX = 0xffff_ffffn;

/** An unsigned integer field: `0x` hex (big-endian, as polkadot prints it) or a JS integer. */
function parseUint(json: Record<string, unknown>, field: string, max: bigint): bigint {
  const value = json[field];
  let n: bigint;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) n = BigInt(value);
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) n = BigInt(value);
  else if (typeof value === 'bigint' && value >= 0n) n = value;
  else throw new PayloadError(field, `must be a 0x hex number, got ${describe(value)}`);
  if (n > max) throw new PayloadError(field, `is out of range: ${String(value)}`);
  return n;
}

/** A payload's tip (smallest units), as its encoding reads it; PayloadError when it is not a u128. */
export function tipOf(json: SignerPayloadJSON): bigint {
  return parseUint(json as unknown as Record<string, unknown>, 'tip', U128_MAX);
}

function parseBytes(json: Record<string, unknown>, field: string, length?: number): Uint8Array {
  const value = json[field];
  if (!isHex(value)) throw new PayloadError(field, `must be 0x hex, got ${describe(value)}`);
  const bytes = fromHex(value);
  if (length !== undefined && bytes.length !== length) {
    throw new PayloadError(field, `must be ${length} bytes, got ${bytes.length}`);
  }
  return bytes;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  return value === null ? 'null' : typeof value === 'object' ? (Array.isArray(value) ? 'an array' : 'an object') : String(value);
}

function parseExtensions(json: Record<string, unknown>): string[] {
  const list = json.signedExtensions;
  if (!Array.isArray(list) || list.some((name) => typeof name !== 'string')) {
    throw new PayloadError('signedExtensions', `must be an array of extension names, got ${describe(list)}`);
  }
  const seen = new Set<string>();
  for (const name of list as string[]) {
    if (!Object.hasOwn(EXTENSIONS, name)) throw new PayloadError('signedExtensions', `has an unknown extension ${JSON.stringify(name)}`);
    if (seen.has(name)) throw new PayloadError('signedExtensions', `lists ${name} twice`);
    seen.add(name);
  }
  return list as string[];
}

function parsePayload(input: SignerPayloadJSON): { parsed: ParsedPayload; extensions: string[] } {
  if (typeof input !== 'object' || input === null) throw new PayloadError('', `must be an object, got ${describe(input)}`);
  const json = input as unknown as Record<string, unknown>;
  if (json.version !== EXTRINSIC_VERSION) {
    throw new PayloadError('version', `must be ${EXTRINSIC_VERSION}, got ${describe(json.version)}`);
  }
  if (typeof json.address !== 'string' || json.address === '') {
    throw new PayloadError('address', `must be a non-empty string, got ${describe(json.address)}`);
  }
  const era = parseBytes(json, 'era');
  try {
    decodeEra(era);
  } catch (err) {
    throw new PayloadError('era', `is not a valid era: ${(err as Error).message}`);
  }
  parseUint(json, 'blockNumber', U32_MAX);
  const parsed: ParsedPayload = {
    method: parseBytes(json, 'method'),
    era,
    nonce: Number(parseUint(json, 'nonce', U32_MAX)),
    tip: parseUint(json, 'tip', U128_MAX),
    specVersion: Number(parseUint(json, 'specVersion', U32_MAX)),
    transactionVersion: Number(parseUint(json, 'transactionVersion', U32_MAX)),
    genesisHash: parseBytes(json, 'genesisHash', 32),
    blockHash: parseBytes(json, 'blockHash', 32)
  };
  return { parsed, extensions: parseExtensions(json) };
}

/**
 * The SCALE `ExtrinsicPayload` of `json`: method, then every listed extension's extra data, then
 * every listed extension's additional signed data (polkadot's `toU8a({ method: true })`).
 * Unknown keys of `json` are ignored.
 */
export function encodeExtrinsicPayload(json: SignerPayloadJSON): Uint8Array {
  const { parsed, extensions } = parsePayload(json);
  const parts: Uint8Array[] = [parsed.method];
  for (const name of extensions) {
    const extra = EXTENSIONS[name].extra;
    if (extra) parts.push(extra(parsed));
  }
  for (const name of extensions) {
    const additional = EXTENSIONS[name].additional;
    if (additional) parts.push(additional(parsed));
  }
  return concatBytes(parts);
}

/** The exact message to sign: the payload itself, or its blake2b-256 hash when it is longer than 256 bytes. */
export function signerPayloadHex(payload: Uint8Array): string {
  return toHex(payload.length > MAX_UNHASHED_PAYLOAD ? blake2b256(payload) : payload);
}

/** polkadot's `SignerPayload.toRaw()`: the full payload, never hashed (`payload`: its encoding, when already made). */
export function signerPayloadRaw(json: SignerPayloadJSON, payload = encodeExtrinsicPayload(json)): { address: string; data: string; type: 'payload' } {
  return { address: json.address, data: toHex(payload), type: 'payload' };
}

export interface SignerPayloadInput {
  address: string;
  method: Uint8Array;
  nonce: number;
  era: Uint8Array;
  blockHash: string | Uint8Array;
  blockNumber: number;
  genesisHash: string | Uint8Array;
  specVersion: number;
  transactionVersion: number;
  tip?: bigint | number;
}

function hexWidth(value: number | bigint, field: string, digits: number): string {
  const n = BigInt(value);
  if (n < 0n || n >= 1n << BigInt(digits * 4)) throw new PayloadError(field, `is out of range: ${String(value)}`);
  return '0x' + n.toString(16).padStart(digits, '0');
}

function hashHex(value: string | Uint8Array, field: string): string {
  const bytes = typeof value === 'string' ? (isHex(value) ? fromHex(value) : null) : value;
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new PayloadError(field, 'must be 32 bytes');
  return toHex(bytes);
}

function integer(value: number | bigint | undefined, field: string): number | bigint {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return value;
  throw new PayloadError(field, `must be an integer, got ${describe(value)}`);
}

/** The twelve fields of a signer payload, in polkadot's hex widths, for the advertised extensions. */
export function buildSignerPayloadJSON(input: SignerPayloadInput): SignerPayloadJSON {
  try {
    decodeEra(input.era);
  } catch (err) {
    throw new PayloadError('era', `is not a valid era: ${(err as Error).message}`);
  }
  return {
    address: input.address,
    blockHash: hashHex(input.blockHash, 'blockHash'),
    blockNumber: hexWidth(integer(input.blockNumber, 'blockNumber'), 'blockNumber', 8),
    era: toHex(input.era),
    genesisHash: hashHex(input.genesisHash, 'genesisHash'),
    method: toHex(input.method),
    nonce: hexWidth(integer(input.nonce, 'nonce'), 'nonce', 8),
    signedExtensions: [...SIGNED_EXTENSIONS],
    specVersion: hexWidth(integer(input.specVersion, 'specVersion'), 'specVersion', 8),
    tip: hexWidth(integer(input.tip ?? 0n, 'tip'), 'tip', 32),
    transactionVersion: hexWidth(integer(input.transactionVersion, 'transactionVersion'), 'transactionVersion', 8),
    version: EXTRINSIC_VERSION
  };
}
