// Chain values as the real service's state queries answer them: its `serialize` of a polkadot.js
// codec, `{rawType, isEmpty, hash, human, json, hex}` (hash: blake2-256 of the SCALE bytes; json and
// human as polkadot.js's toJSON / toHuman; hex as its toHex). Each builder below makes the value of
// one codec kind from plain data; tests compare them with @polkadot/types itself.
import { formatNumber, isUtf8, u8aToHex, u8aToString } from '@polkadot/util';
import { addressFromPublicKey, publicKeyOf } from '../../codec/address';
import { blake2b256, fromHex, toHex } from '../../codec/hash';
import { bool as boolCodec, bytes as bytesCodec, compactU32, concatBytes } from '../../codec/scale';

export interface ChainValue {
  /** polkadot.js toRawType(). */
  rawType: string;
  /** The SCALE encoding (toU8a()). */
  bytes: Uint8Array;
  json: unknown;
  human: unknown;
  isEmpty: boolean;
  /** toHex() when it is not the hex of `bytes` (integers are big-endian; Option and Bytes drop their prefix). */
  hex?: string;
}

export function serialized(value: ChainValue) {
  return {
    rawType: value.rawType,
    isEmpty: value.isEmpty,
    hash: toHex(blake2b256(value.bytes)),
    human: value.human,
    json: value.json,
    hex: value.hex ?? toHex(value.bytes)
  };
}

/** An unsigned integer of `bits` bits (u8 … u128). */
export function uint(bits: 8 | 16 | 32 | 64 | 128, input: number | bigint): ChainValue {
  const value = BigInt(input);
  const size = bits / 8;
  const le = new Uint8Array(size);
  for (let i = 0, v = value; i < size; i++, v >>= 8n) le[i] = Number(v & 0xffn);
  const hex = toHex(le.slice().reverse());
  // AbstractInt.toJSON: a number while it is exact, hex beyond 52 bits.
  const json = value.toString(2).length > 52 ? hex : Number(value);
  return { rawType: `u${bits}`, bytes: le, json, human: formatNumber(value), isEmpty: value === 0n, hex };
}

export function bool(value: boolean): ChainValue {
  return { rawType: 'bool', bytes: boolCodec.enc(value), json: value, human: value, isEmpty: !value };
}

export function accountId(address: string, ss58Prefix: number): ChainValue {
  const key = publicKeyOf(address);
  const text = addressFromPublicKey(key, ss58Prefix);
  return { rawType: 'AccountId', bytes: key, json: text, human: text, isEmpty: key.every((b) => b === 0) };
}

export function h160(address: string): ChainValue {
  const bytes = fromHex(address);
  const text = toHex(bytes);
  return { rawType: 'H160', bytes, json: text, human: text, isEmpty: bytes.every((b) => b === 0) };
}

/** `Bytes` (Vec<u8>): hex in JSON, text in human when it is printable UTF-8. */
export function byteString(data: Uint8Array): ChainValue {
  const human = isUtf8(data) ? u8aToString(data) : u8aToHex(data);
  return { rawType: 'Bytes', bytes: bytesCodec.enc(data), json: u8aToHex(data), human, isEmpty: data.length === 0, hex: u8aToHex(data) };
}

/** `Vec<T>` of values of one type named `inner`. */
export function vec(inner: string, items: ChainValue[]): ChainValue {
  return {
    rawType: `Vec<${inner}>`,
    bytes: concatBytes([compactU32.enc(items.length), ...items.map((i) => i.bytes)]),
    json: items.map((i) => i.json),
    human: items.map((i) => i.human),
    isEmpty: items.length === 0
  };
}

/** `Option<T>`: None is empty, `0x` and null; Some is its value with the 0x01 prefix in the bytes only. */
export function option(inner: string, value: ChainValue | null): ChainValue {
  if (!value) return { rawType: `Option<${inner}>`, bytes: new Uint8Array([0]), json: null, human: null, isEmpty: true, hex: '0x' };
  const hex = value.hex ?? toHex(value.bytes);
  return { rawType: `Option<${inner}>`, bytes: concatBytes([new Uint8Array([1]), value.bytes]), json: value.json, human: value.human, isEmpty: false, hex };
}

/** A struct: fields in order, each with the type name its rawType shows. */
export function struct(fields: Array<[name: string, type: string, value: ChainValue]>): ChainValue {
  return {
    rawType: JSON.stringify(Object.fromEntries(fields.map(([name, type]) => [name, type]))),
    bytes: concatBytes(fields.map(([, , v]) => v.bytes)),
    json: Object.fromEntries(fields.map(([name, , v]) => [name, v.json])),
    human: Object.fromEntries(fields.map(([name, , v]) => [name, v.human])),
    isEmpty: fields.every(([, , v]) => v.isEmpty)
  };
}

/** polkadot.js's key of an enum variant in toJSON: camelCase, with a leading run of capitals lowered (NFT → nft). */
function jsonKey(name: string): string {
  return name.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (head) => head.toLowerCase());
}

/**
 * An enum value: `variants` name each variant's type (`Null` for none), the value is one variant
 * and its data. All-Null enums are "basic": their JSON is the variant name; a Null variant's human
 * is its name, and an enum is as empty as its data (a Null variant always).
 */
export function enumValue(variants: Array<[name: string, type: string]>, name: string, data: ChainValue | null = null): ChainValue {
  const index = variants.findIndex(([n]) => n === name);
  if (index < 0) throw new Error(`${name} is not a variant`);
  const basic = variants.every(([, type]) => type === 'Null');
  const rawType = JSON.stringify({ _enum: Object.fromEntries(variants.map(([n, type], i) => [n, basic ? i : type])) });
  return {
    rawType,
    bytes: concatBytes([new Uint8Array([index]), data?.bytes ?? new Uint8Array()]),
    json: basic ? name : { [jsonKey(name)]: data ? data.json : null },
    human: data ? { [name]: data.human } : name,
    isEmpty: data ? data.isEmpty : true
  };
}
