// An attribute value as a person writes it (a CSV cell, a form field, a JSON value), checked
// against its definition in the collection schema the way the service checks it (Unique schema
// v1: enum values, number and text types), and typed for `data.attributes`. Errors say what is
// wrong with the value; the caller says where it is (line and column, field, token).
import { quote } from '../limits';
import type { AttributeSchema } from './types';

const NUMBER_TYPES = new Set(['number', 'integer', 'float', 'timestamp']);
const WHOLE_NUMBER_TYPES = new Set(['integer', 'timestamp']);
// The schema library's colour forms: #rrggbb or #rrggbbaa.
const COLOR = /^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{8})$/;

type Boxed = { _: unknown } & Record<string, unknown>;

function isBoxed(value: unknown): value is Boxed {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '_' in value;
}

/** A value as the message shows it: strings quoted and bounded. */
function shown(value: unknown): string {
  return typeof value === 'string' ? `"${quote(value)}"` : quote(JSON.stringify(value) ?? String(value));
}

/** One of the enum's values, matched by its text (any language, any case) or number; else an error naming the allowed ones. */
function enumValue(definition: AttributeSchema, value: unknown): unknown {
  const entries = Object.entries(definition.enumValues ?? {});
  const wanted = isBoxed(value) ? value._ : value;
  if (typeof wanted === 'string') {
    const text = wanted.trim();
    const texts = (entry: Record<string, unknown>) => Object.values(entry).map(String);
    const found =
      entries.find(([, entry]) => String(entry._) === text) ??
      entries.find(([, entry]) => texts(entry).includes(text)) ??
      entries.find(([, entry]) => texts(entry).some((t) => t.toLowerCase() === text.toLowerCase()));
    if (found) return found[1]._;
  }
  // A number is an enum value, or else the index of one (as the service reads it).
  if (typeof wanted === 'number' && entries.some(([key, entry]) => entry._ === wanted || key === String(wanted))) return wanted;
  throw new Error(`${shown(wanted)} is not one of the allowed values (${entries.map(([, entry]) => entry._).join(', ')})`);
}

function booleanValue(value: unknown): unknown {
  if (typeof value === 'boolean' || value === 0 || value === 1) return value;
  if (typeof value === 'string') {
    if (/^(true|yes|1)$/i.test(value.trim())) return true;
    if (/^(false|no|0)$/i.test(value.trim())) return false;
  }
  throw new Error(`${shown(value)} is not true or false`);
}

function numberValue(value: unknown, whole: boolean): number {
  const text = typeof value === 'string' ? value.trim() : null;
  const n = typeof value === 'number' ? value : text !== null && text !== '' ? Number(text) : Number.NaN;
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) throw new Error(`${shown(value)} is not a ${whole ? 'whole number' : 'number'}`);
  return n;
}

function textValue(type: string, value: unknown): string {
  if (typeof value !== 'string') throw new Error(`${shown(value)} is not text`);
  const text = value.trim();
  if (type === 'isoDate' && Number.isNaN(new Date(text).valueOf())) throw new Error(`${shown(text)} is not a date (YYYY-MM-DD)`);
  if (type === 'time' && Number.isNaN(new Date(`1970-01-01T${text}`).valueOf())) throw new Error(`${shown(text)} is not a time (hh:mm or hh:mm:ss)`);
  if (type === 'colorRgba' && !COLOR.test(text)) throw new Error(`${shown(text)} is not a colour (#rrggbb or #rrggbbaa)`);
  return text;
}

function oneValue(definition: AttributeSchema, value: unknown): unknown {
  if (definition.enumValues) return enumValue(definition, value);
  // A localized text object ({_: …, fr: …}) is checked by its default text and kept whole.
  if (isBoxed(value)) {
    oneValue(definition, value._);
    return value;
  }
  if (definition.type === 'boolean') return booleanValue(value);
  if (NUMBER_TYPES.has(definition.type)) return numberValue(value, WHOLE_NUMBER_TYPES.has(definition.type));
  return textValue(definition.type, value);
}

/**
 * The value of `definition` for `raw`, checked: an enum value among the allowed ones, a number
 * for number types (whole for integer and timestamp), true/false/yes/no/1/0 for a boolean, a
 * date, time or colour for those types. A list attribute takes a JSON array or text with `|`
 * (or `;`) between the values.
 */
export function attributeValue(definition: AttributeSchema, raw: unknown): unknown {
  if (definition.isArray) {
    const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[|;]/).map((s) => s.trim()).filter(Boolean) : [raw];
    return list.map((value) => oneValue(definition, value));
  }
  if (Array.isArray(raw)) throw new Error('takes one value, not a list');
  return oneValue(definition, raw);
}

/**
 * The names of the schema's required attributes missing from `given` (the attribute names a token
 * gives a value for). As the service checks it, only a token that gives some attributes must give
 * every required one.
 */
export function missingAttributes(schema: Record<string, AttributeSchema> | undefined, given: readonly string[]): string[] {
  if (given.length === 0) return [];
  return Object.values(schema ?? {})
    .filter((definition) => !definition.optional && !given.includes(definition.name._))
    .map((definition) => definition.name._);
}
