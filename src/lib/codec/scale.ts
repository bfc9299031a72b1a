// Strict SCALE codecs on top of scale-ts: range-checked encoders, decoders that reject bad input.
import { Struct as ScaleStruct, compact, createCodec, createDecoder, u128 as u128Raw, u16 as u16Raw, u32 as u32Raw, u8 as u8Raw } from 'scale-ts';
import type { Codec, CodecType, StringRecord } from 'scale-ts';
import { MAX_DECIMAL_DIGITS, quote } from '../limits';

export type { Codec } from 'scale-ts';

/** Bad input for a SCALE encoder or decoder; callers wrap it with their own context. */
export class ScaleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScaleError';
  }
}

// scale-ts decodes through a Uint8Array over the whole buffer that carries its cursor in `i`.
interface Cursor extends Uint8Array {
  i: number;
}

function cursorOf(bytes: Uint8Array): Cursor {
  return bytes as Cursor;
}

/** Throws unless `n` more bytes are left to read. */
function need(bytes: Uint8Array, n: number, what: string): void {
  const c = cursorOf(bytes);
  if (c.i + n > c.length) throw new ScaleError(`unexpected end of input in ${what}`);
}

function take(bytes: Uint8Array, n: number, what: string): Uint8Array {
  need(bytes, n, what);
  const c = cursorOf(bytes);
  // A plain copy: slicing the cursor itself would build another cursor over a number.
  const out = new Uint8Array(c.buffer.slice(c.i, c.i + n));
  c.i += n;
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export { concat as concatBytes };

// ---- JSON in: a codec's value from its JSON form ------------------------------------------------
// JSON has no bigint, so a call's amounts arrive as numbers or decimal strings. Each codec that
// holds an amount at any depth carries a reader that converts them; every other value passes
// unchanged, for the encoder to check.

/** Converts `value`, found at `path` of a request, into what a codec encodes; throws ScaleError naming `path`. */
export type JsonReader = (value: unknown, path: string) => unknown;

/** Readers kept by codec: `attach` gives a codec one, `read` passes a value through it (unchanged without one). */
function readerTable() {
  const readers = new WeakMap<object, JsonReader>();
  return {
    attach: <C extends Codec<any>>(codec: C, read: JsonReader): C => {
      readers.set(codec, read);
      return codec;
    },
    read: (codec: Codec<any>, value: unknown, path: string): unknown => {
      const read = readers.get(codec);
      return read ? read(value, path) : value;
    },
    has: (codec: Codec<any>) => readers.has(codec)
  };
}

const amountReaders = readerTable();

/** `codec`, whose JSON form `read` converts (for codecs built by hand that hold amounts). */
export const withJsonReader = amountReaders.attach;

/** The value `codec` encodes from its JSON form: amounts at any depth become bigints, the rest is as given. */
export const fromJson = amountReaders.read;

const holdsAmounts = amountReaders.has;

/** A JSON object (not null, not a list). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const U128_MAX = (1n << 128n) - 1n;

const AMOUNT_DIGITS_RE = new RegExp(`^\\d{1,${MAX_DECIMAL_DIGITS}}$`);

/**
 * A u128 from JSON: a non-negative safe integer or a string of decimal digits (bounded before it is
 * parsed), at most 2^128 - 1; a bigint as is.
 */
export function readAmount(value: unknown, path: string): bigint {
  let amount: bigint | null = null;
  if (typeof value === 'bigint') amount = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) amount = BigInt(value);
  else if (typeof value === 'string' && AMOUNT_DIGITS_RE.test(value)) amount = BigInt(value);
  if (amount === null || amount < 0n || amount > U128_MAX) {
    const what = typeof value === 'string' ? `"${quote(value)}"` : quote(value);
    throw new ScaleError(
      `${path} must be a whole number from 0 to 2^128 - 1 (a JSON number up to 2^53 - 1, or a string of at most ${MAX_DECIMAL_DIGITS} digits), not ${what}`
    );
  }
  return amount;
}

// ---- chain JSON in: a codec's value from the polkadot.js JSON of the chain's type ---------------
// `/extrinsic/build` also takes positional args as @polkadot/types takes them ({Substrate: addr},
// {NFT: {properties}}, Bytes as hex, Vec<u16> as numbers...); each codec whose value form differs
// carries a reader from that form, and a struct reads its fields by name, so the conversion follows
// the codec. Amounts keep their JSON form here, for `fromJson` to read next.

const chainReaders = readerTable();
/** What polkadot.js takes for an absent struct field of this codec (an empty list or string). */
const CHAIN_DEFAULTS = new WeakMap<object, () => unknown>();
const STRUCT_FIELDS = new WeakMap<object, Array<[string, Codec<any>]>>();

/** `codec`, whose value in polkadot.js JSON form `read` converts into the codec's own form. */
export const withChainJsonReader = chainReaders.attach;

/** The value `codec` takes from the polkadot.js JSON of the chain's type (amounts still as JSON); throws ScaleError naming `path`. */
export const fromChainJson = chainReaders.read;

/** `codec`, which polkadot.js fills with `make()` when a struct's field is absent. */
export function withChainDefault<C extends Codec<any>>(codec: C, make: () => unknown): C {
  CHAIN_DEFAULTS.set(codec, make);
  return codec;
}

/** The fields of a codec built by `Struct`, in encoding order; undefined for any other codec. */
export function structFields(codec: Codec<any>): Array<[string, Codec<any>]> | undefined {
  return STRUCT_FIELDS.get(codec);
}

/** The one variant of a polkadot.js enum value: a bare name (unit variant) or `{Name: inner}`, names matched case-insensitively. */
export function readChainEnum<N extends string>(value: unknown, names: readonly N[], path: string, what: string): [N, unknown] {
  const [key, inner] = typeof value === 'string' ? [value, null] : isRecord(value) && Object.keys(value).length === 1 ? Object.entries(value)[0] : [undefined, undefined];
  const name = names.find((n) => n.toLowerCase() === key?.toLowerCase());
  if (name === undefined) throw new ScaleError(`${path} must be a ${what}: ${names.join(', ')} (a name or {Name: value}), not ${quote(JSON.stringify(value) ?? String(value))}`);
  return [name, inner];
}

/** A whole number as polkadot.js takes it: a JSON number, a decimal string or 0x hex; other values unchanged. */
export function readChainInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,32}$/.test(value)) return BigInt(value);
  return value;
}

/** scale-ts's Struct; its JSON reader converts the fields that hold amounts and keeps the others. */
export function Struct<A extends StringRecord<Codec<any>>>(fields: A): Codec<{ [K in keyof A]: CodecType<A[K]> }> {
  const codec = ScaleStruct(fields);
  const entries = Object.entries(fields);
  STRUCT_FIELDS.set(codec, entries);
  withChainJsonReader(codec, (value, path) => {
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [name, field] of entries) {
      if (name in value) out[name] = fromChainJson(field, value[name], `${path}.${name}`);
      else if (CHAIN_DEFAULTS.has(field)) out[name] = CHAIN_DEFAULTS.get(field)!();
    }
    return out;
  });
  const amountFields = Object.entries(fields).filter(([, field]) => holdsAmounts(field));
  if (amountFields.length === 0) return codec;
  return withJsonReader(codec, (value, path) => {
    if (!isRecord(value)) return value;
    const out = { ...value };
    for (const [name, field] of amountFields) if (name in out) out[name] = fromJson(field, out[name], `${path}.${name}`);
    return out;
  });
}

function uint(raw: Codec<number>, size: number, max: number, name: string): Codec<number> {
  return createCodec(
    (value: number) => {
      if (typeof value !== 'number') throw new ScaleError(`${name} expects a number, got ${typeof value}`);
      if (!Number.isInteger(value) || value < 0 || value > max) throw new ScaleError(`${name} out of range: ${value}`);
      return raw.enc(value);
    },
    createDecoder((bytes) => {
      need(bytes, size, name);
      return raw.dec(bytes);
    })
  );
}

/** A u8/u16/u32 from polkadot.js JSON: a number, a decimal string or 0x hex. */
function readChainUint(value: unknown): unknown {
  const read = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : readChainInteger(value);
  return typeof read === 'bigint' && read <= 0xffff_ffffn ? Number(read) : read;
}

export const u8 = withChainJsonReader(uint(u8Raw, 1, 0xff, 'u8'), readChainUint);
export const u16 = withChainJsonReader(uint(u16Raw, 2, 0xffff, 'u16'), readChainUint);
export const u32 = withChainJsonReader(uint(u32Raw, 4, 0xffff_ffff, 'u32'), readChainUint);

export const u128: Codec<bigint> = withJsonReader(createCodec(
  (value: bigint) => {
    if (typeof value !== 'bigint') throw new ScaleError(`u128 expects a bigint, got ${typeof value}`);
    if (value < 0n || value > U128_MAX) throw new ScaleError(`u128 out of range: ${value}`);
    return u128Raw.enc(value);
  },
  createDecoder((bytes) => {
    need(bytes, 16, 'u128');
    return u128Raw.dec(bytes);
  })
), readAmount);
withChainJsonReader(u128, readChainInteger);

export const bool: Codec<boolean> = createCodec(
  (value: boolean) => {
    if (typeof value !== 'boolean') throw new ScaleError(`bool expects a boolean, got ${typeof value}`);
    return new Uint8Array([value ? 1 : 0]);
  },
  createDecoder((bytes) => {
    const byte = take(bytes, 1, 'bool')[0];
    if (byte > 1) throw new ScaleError(`invalid bool byte ${byte}`);
    return byte === 1;
  })
);

/** Compact<u128> as a bigint; rejects non-canonical encodings as Substrate does. */
export const compactBig: Codec<bigint> = withJsonReader(createCodec(
  (value: bigint) => {
    if (typeof value !== 'bigint') throw new ScaleError(`compact expects a bigint, got ${typeof value}`);
    if (value < 0n || value > U128_MAX) throw new ScaleError(`compact out of range: ${value}`);
    return compact.enc(value);
  },
  createDecoder((bytes) => {
    need(bytes, 1, 'compact');
    const c = cursorOf(bytes);
    const first = c[c.i];
    const mode = first & 3;
    const size = mode === 0 ? 1 : mode === 1 ? 2 : mode === 2 ? 4 : (first >> 2) + 5;
    need(bytes, size, 'compact');
    const value = BigInt(compact.dec(bytes));
    if (value > U128_MAX || compact.enc(value).length !== size) throw new ScaleError('non-canonical compact');
    return value;
  })
), readAmount);
withChainJsonReader(compactBig, readChainInteger);

/** A compact that must fit a u32 (lengths, nonces). */
export const compactU32: Codec<number> = createCodec(
  (value: number) => {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
      throw new ScaleError(`compact u32 out of range: ${String(value)}`);
    }
    return compact.enc(value);
  },
  createDecoder((bytes) => {
    const value = compactBig.dec(bytes);
    if (value > 0xffff_ffffn) throw new ScaleError(`compact u32 out of range: ${value}`);
    return Number(value);
  })
);

/** `Vec<u8>`: compact length, then the bytes. */
export const bytes: Codec<Uint8Array> = createCodec(
  (value: Uint8Array) => {
    if (!(value instanceof Uint8Array)) throw new ScaleError(`expected a Uint8Array, got ${typeof value}`);
    return concat([compact.enc(value.length), value]);
  },
  createDecoder((input) => take(input, compactU32.dec(input), 'bytes'))
);

/** `[u8; n]`. */
export function fixedBytes(n: number): Codec<Uint8Array> {
  return createCodec(
    (value: Uint8Array) => {
      if (!(value instanceof Uint8Array) || value.length !== n) {
        throw new ScaleError(`${n} bytes expected, got ${value instanceof Uint8Array ? value.length : typeof value}`);
      }
      return value.slice();
    },
    createDecoder((input) => take(input, n, `[u8; ${n}]`))
  );
}

/** `Vec<T>` of elements at least one byte long (every element type this project encodes). */
export function vec<T>(inner: Codec<T>): Codec<T[]> {
  const codec = createCodec(
    (values: T[]) => {
      if (!Array.isArray(values)) throw new ScaleError(`expected an array, got ${typeof values}`);
      return concat([compact.enc(values.length), ...values.map((v) => inner.enc(v))]);
    },
    createDecoder((input) => {
      const length = compactU32.dec(input);
      const c = cursorOf(input);
      // Checked before allocating: a forged length must not reserve gigabytes.
      if (length > c.length - c.i) throw new ScaleError(`unexpected end of input in a list of ${length}`);
      const out: T[] = [];
      for (let k = 0; k < length; k++) out.push(inner.dec(input));
      return out;
    })
  );
  CHAIN_DEFAULTS.set(codec, () => []);
  if (chainReaders.has(inner)) {
    withChainJsonReader(codec, (value, path) => (Array.isArray(value) ? value.map((item, k) => fromChainJson(inner, item, `${path}[${k}]`)) : value));
  }
  if (!holdsAmounts(inner)) return codec;
  return withJsonReader(codec, (value, path) => (Array.isArray(value) ? value.map((item, k) => fromJson(inner, item, `${path}[${k}]`)) : value));
}

/** `Option<T>`: encodes both `undefined` and `null` as None; decodes None to `undefined`. */
export function option<T>(inner: Codec<T>): Codec<T | undefined> {
  const codec = createCodec(
    (value: T | undefined | null) =>
      value === undefined || value === null ? new Uint8Array([0]) : concat([new Uint8Array([1]), inner.enc(value)]),
    createDecoder((input) => {
      const tag = take(input, 1, 'option')[0];
      if (tag > 1) throw new ScaleError(`invalid option byte ${tag}`);
      return tag === 1 ? inner.dec(input) : undefined;
    })
  );
  withChainJsonReader(codec, (value, path) => (value === undefined || value === null ? undefined : fromChainJson(inner, value, path)));
  if (!holdsAmounts(inner)) return codec;
  return withJsonReader(codec, (value, path) => (value === undefined || value === null ? value : fromJson(inner, value, path)));
}

/** Reads an enum's variant index, rejecting anything not below `count`. */
export function readVariant(input: Uint8Array, count: number, what: string): number {
  const index = take(input, 1, what)[0];
  if (index >= count) throw new ScaleError(`unknown ${what} variant ${index}`);
  return index;
}

/** A field-less enum mapped to string names in index order. */
export function unitEnum<T extends string>(names: readonly T[], what: string): Codec<T> {
  const codec = createCodec(
    (value: T) => {
      const index = names.indexOf(value);
      if (index < 0) throw new ScaleError(`unknown ${what} ${String(value)}`);
      return new Uint8Array([index]);
    },
    createDecoder((input) => names[readVariant(input, names.length, what)])
  );
  return withChainJsonReader(codec, (value, path) => readChainEnum(value, names, path, what)[0]);
}

const utf8Encoder = new TextEncoder();
// Fatal: a decoded string must re-encode to the same bytes; ignoreBOM keeps a leading U+FEFF.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// With the u flag only unpaired surrogates match, and those have no UTF-8 form.
const LONE_SURROGATE_RE = /[\uD800-\uDFFF]/u;

/** A string as UTF-8 `Vec<u8>`. */
export const utf8: Codec<string> = createCodec(
  (value: string) => {
    if (typeof value !== 'string') throw new ScaleError(`expected a string, got ${typeof value}`);
    if (LONE_SURROGATE_RE.test(value)) throw new ScaleError('string has an unpaired surrogate');
    return bytes.enc(utf8Encoder.encode(value));
  },
  createDecoder((input) => {
    const raw = bytes.dec(input);
    try {
      return utf8Decoder.decode(raw);
    } catch {
      throw new ScaleError('invalid UTF-8');
    }
  })
);

/** A string as `Vec<u16>` of UTF-16 code units (collection name and description). */
export const utf16: Codec<string> = createCodec(
  (value: string) => {
    if (typeof value !== 'string') throw new ScaleError(`expected a string, got ${typeof value}`);
    const units = new Uint8Array(value.length * 2);
    for (let k = 0; k < value.length; k++) {
      const unit = value.charCodeAt(k);
      units[k * 2] = unit & 0xff;
      units[k * 2 + 1] = unit >> 8;
    }
    return concat([compact.enc(value.length), units]);
  },
  createDecoder((input) => {
    const length = compactU32.dec(input);
    const raw = take(input, length * 2, 'UTF-16 string');
    let out = '';
    for (let k = 0; k < length; k++) out += String.fromCharCode(raw[k * 2] | (raw[k * 2 + 1] << 8));
    return out;
  })
);

/** Copy of `obj` without its `undefined` fields (decoded None becomes an absent key). */
export function withoutUndefined<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) if (value !== undefined) out[key] = value;
  return out as T;
}

/**
 * Decodes exactly one value of `codec` from `input`: truncated input and trailing bytes throw
 * `ScaleError`. `input` is copied, so a subarray is read from its own start.
 */
export function decodeExact<T>(codec: Codec<T> | ((input: Uint8Array) => T), input: Uint8Array): T {
  const decode = typeof codec === 'function' ? codec : codec.dec;
  const run = createDecoder((c) => {
    const value = decode(c);
    const cursor = cursorOf(c);
    if (cursor.i < cursor.length) throw new ScaleError(`${cursor.length - cursor.i} trailing byte(s)`);
    return value;
  });
  try {
    return run(input.slice());
  } catch (err) {
    // scale-ts reads integers through a DataView, which throws RangeError past the end.
    if (err instanceof RangeError) throw new ScaleError('unexpected end of input');
    throw err;
  }
}

/** A codec from an encoder and a cursor-reading decoder (the decoder reads from the shared cursor). */
export function createCodecOf<T>(encode: (value: T) => Uint8Array, decode: (input: Uint8Array) => T): Codec<T> {
  return createCodec(encode, createDecoder(decode));
}

/** Bytes as polkadot.js takes them: 0x hex or a list of byte values; undefined for anything else. */
function chainBytes(value: unknown): Uint8Array | undefined {
  if (typeof value === 'string' && /^0x(?:[0-9a-fA-F]{2})*$/.test(value)) return Uint8Array.from(value.slice(2).match(/../g) ?? [], (h) => Number.parseInt(h, 16));
  if (Array.isArray(value) && value.every((b) => Number.isInteger(b) && b >= 0 && b <= 0xff)) return Uint8Array.from(value as number[]);
  return undefined;
}

// `Bytes` in polkadot.js JSON: hex or byte values are the UTF-8 bytes, any other string is the text itself.
withChainJsonReader(utf8, (value, path) => {
  const raw = chainBytes(value);
  if (raw === undefined) return value;
  try {
    return utf8Decoder.decode(raw);
  } catch {
    throw new ScaleError(`${path} is not UTF-8 text: ${quote(JSON.stringify(value))}`);
  }
});
CHAIN_DEFAULTS.set(utf8, () => '');

// `Vec<u16>` in polkadot.js JSON: a list of UTF-16 code units (as the SDK sends names), or the text itself.
withChainJsonReader(utf16, (value) =>
  Array.isArray(value) && value.every((u) => Number.isInteger(u) && u >= 0 && u <= 0xffff) ? (value as number[]).map((u) => String.fromCharCode(u)).join('') : value
);
CHAIN_DEFAULTS.set(utf16, () => '');
