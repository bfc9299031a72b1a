// Many tokens from a list: a JSON file (an array of tokens) or CSV text (a header row, one token
// per line). Pure: parsing and checking only; uploads and minting are the page's. Every row is
// checked as the service would check it (attribute values against the schema, owner addresses),
// and every problem is reported where it is (CSV line and column, or JSON token), so a person can
// fix the file before anything is signed.
import { accountAddress } from './address';
import { attributeValue, missingAttributes } from './attribute-value';
import { imageInput, isCid } from './format';
import type { AttributeSchema, CollectionSchema, Property } from './types';

/** One token to mint, in the shape of `POST /tokens/create-multiple` items. */
export interface MintItem {
  owner?: string;
  data: {
    name?: { _: string };
    description?: { _: string };
    image?: { ipfsCid: string } | { url: string };
    attributes?: Record<string, unknown>;
  };
  properties?: Property[];
  /** The image is one of the files the person picked, by file name: upload it first. */
  imageFile?: string;
  /** Where the row is in the list, as messages name it ("Line 4", "Token 2"). */
  where?: string;
  /** Where its owner is ("Line 4, column Owner"), when it gives one. */
  ownerWhere?: string;
  /** Where its image is ("Line 4, column image"), when it gives one. */
  imageWhere?: string;
}

export interface MintListResult {
  items: MintItem[];
  errors: string[];
}

/** One CSV record and the line of the text it starts on (a quoted cell may span lines). */
export interface CsvRow {
  line: number;
  cells: string[];
}

export interface CsvResult {
  rows: CsvRow[];
  errors: string[];
}

/**
 * A CSV parser for the files people export from spreadsheets: quotes, doubled quotes, CRLF,
 * comma, semicolon or tab. Blank lines are skipped (their numbers still count). A quote that
 * opens a cell and never closes is an error naming its line, and the rows from there on are
 * dropped: everything after it would otherwise become one cell.
 */
export function parseCsv(text: string): CsvResult {
  const rows: CsvRow[] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let quoteLine = 1;
  const source = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(source);
  const endRow = () => {
    row.push(cell.trim());
    if (row.some((v) => v !== '')) rows.push({ line: rowLine, cells: row });
    row = [];
    cell = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    const newline = c === '\n' || c === '\r';
    if (newline && c === '\r' && source[i + 1] === '\n') i++;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += newline ? '\n' : c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      quoteLine = line;
      cell = '';
    } else if (c === delimiter) {
      row.push(cell.trim());
      cell = '';
    } else if (newline) {
      endRow();
      rowLine = line + 1;
    } else cell += c;
    if (newline) line++;
  }
  if (quoted) {
    return { rows, errors: [`Line ${quoteLine}: the quote that opens this cell is never closed (a cell that starts with " ends with ")`] };
  }
  endRow();
  return { rows, errors: [] };
}

/** Comma unless the first line with text has more semicolons or tabs (European spreadsheets, TSV). */
export function detectDelimiter(text: string): string {
  const first = text.split(/\r\n|\n|\r/).find((l) => l.trim() !== '') ?? '';
  const count = (c: string) => first.split(c).length - 1;
  const candidates: [string, number][] = [
    [',', count(',')],
    [';', count(';')],
    ['\t', count('\t')]
  ];
  candidates.sort((a, b) => b[1] - a[1]);
  return candidates[0][1] > 0 ? candidates[0][0] : ',';
}

function attributeByName(schema: CollectionSchema | null | undefined, name: string): AttributeSchema | undefined {
  const wanted = name.trim().toLowerCase();
  return Object.values(schema?.attributesSchema ?? {}).find((a) => Object.values(a.name).some((n) => String(n).toLowerCase() === wanted));
}

/** The image files beside a list: the picked ones, and why others were left out (by name). */
interface ImageFiles {
  picked: ReadonlySet<string>;
  leftOut: ReadonlyMap<string, string>;
}

/** An image column: a picked file's name, a CID or a URL. */
function imageCell(value: string, files: ImageFiles): Pick<MintItem, 'imageFile'> & Pick<MintItem['data'], 'image'> {
  const text = value.trim();
  if (text === '') return {};
  if (files.picked.has(text)) return { imageFile: text };
  const leftOut = files.leftOut.get(text);
  if (leftOut !== undefined) throw new Error(`The image file ${text} was picked but left out: ${leftOut}`);
  if (!isCid(text) && !/^(https?:|ipfs:|data:|\/)/i.test(text)) {
    throw new Error(`"${text}" is not a URL, a CID, or the name of one of the picked image files`);
  }
  return { image: imageInput(text) };
}

const KNOWN_COLUMNS = ['name', 'description', 'image', 'owner'];
/** The columns of a list without a header row. */
const DEFAULT_HEADER = ['name', 'image', 'description'];

type Column = { title: string } & (
  | { kind: 'name' | 'description' | 'image' | 'owner' }
  | { kind: 'property'; key: string }
  | { kind: 'attribute'; name: string; definition: AttributeSchema }
  | { kind: 'unknown' }
);

function columnOf(header: string, schema: CollectionSchema | null | undefined): Column {
  const title = header.trim();
  const lower = title.toLowerCase();
  if (KNOWN_COLUMNS.includes(lower)) return { title, kind: lower as 'name' | 'description' | 'image' | 'owner' };
  if (lower.startsWith('prop:')) return { title, kind: 'property', key: title.slice(5) };
  const attribute = attributeByName(schema, lower.startsWith('attr:') ? lower.slice(5) : lower);
  if (attribute) return { title, kind: 'attribute', name: attribute.name._, definition: attribute };
  return { title, kind: 'unknown' };
}

/** Runs `fill`; what it throws becomes a problem `where: message` (every field of a row is checked, not only its first bad one). */
function check(problems: string[], where: string, fill: () => void): void {
  try {
    fill();
  } catch (error) {
    problems.push(`${where}: ${(error as Error).message}`);
  }
}

/** The problem of a token that gives some attributes (`given`, by name) but not every required one, or null. */
function missingProblem(schema: CollectionSchema | null | undefined, given: string[], where: string): string | null {
  const missing = missingAttributes(schema?.attributesSchema, given);
  if (missing.length === 0) return null;
  return `${where}: ${missing.join(', ')} ${missing.length > 1 ? 'need values' : 'needs a value'} (the schema requires ${missing.length > 1 ? 'them' : 'it'} once a token has attributes)`;
}

function fillCell(item: MintItem, column: Column, value: string, files: ImageFiles): void {
  switch (column.kind) {
    case 'name':
      item.data.name = { _: value };
      break;
    case 'description':
      item.data.description = { _: value };
      break;
    case 'owner':
      item.owner = accountAddress(value);
      break;
    case 'image':
      setImage(item, imageCell(value, files));
      break;
    case 'property':
      (item.properties ??= []).push({ key: column.key, value });
      break;
    case 'attribute':
      (item.data.attributes ??= {})[column.name] = attributeValue(column.definition, value);
      break;
  }
}

function fromCsv(text: string, schema: CollectionSchema | null | undefined, files: ImageFiles): MintListResult {
  const { rows, errors: csvErrors } = parseCsv(text);
  if (csvErrors.length) return { items: [], errors: csvErrors };
  const errors: string[] = [];
  const items: MintItem[] = [];
  if (rows.length === 0) return { items, errors: ['The list is empty'] };
  const first = rows[0].cells.map((c) => c.toLowerCase());
  const hasHeader = first.includes('name') || first.includes('image');
  const columns = (hasHeader ? rows[0].cells : DEFAULT_HEADER).map((title) => columnOf(title, schema));
  const body = hasHeader ? rows.slice(1) : rows;
  const unknown = columns.flatMap((c) => (c.kind === 'unknown' ? [c.title] : []));
  if (unknown.length) {
    const attributes = Object.values(schema?.attributesSchema ?? {}).map((a) => a.name._);
    errors.push(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}: use name, description, image, owner, ` +
        (attributes.length ? `an attribute of the schema (${attributes.join(', ')}), ` : '') +
        'or prop:<key> for a raw property'
    );
    return { items, errors };
  }
  for (const { line, cells } of body) {
    const problems: string[] = [];
    const item: MintItem = { data: {}, where: `Line ${line}` };
    // Cells past the last column would be lost: most often a comma inside an unquoted value.
    const used = cells.length - [...cells].reverse().findIndex((c) => c !== '');
    if (used > columns.length) {
      problems.push(`Line ${line}: ${used} cells, but the list has ${columns.length} columns (a value with a comma needs quotes around it)`);
    }
    columns.forEach((column, i) => {
      const value = cells[i] ?? '';
      if (value === '') return;
      check(problems, `Line ${line}, column ${column.title}`, () => fillCell(item, column, value, files));
      if (column.kind === 'owner') item.ownerWhere = `Line ${line}, column ${column.title}`;
      if (column.kind === 'image') item.imageWhere = `Line ${line}, column ${column.title}`;
    });
    const given = columns.flatMap((column, i) => (column.kind === 'attribute' && cells[i] ? [column.name] : []));
    const missing = missingProblem(schema, given, `Line ${line}`);
    if (missing) problems.push(missing);
    if (problems.length) errors.push(...problems);
    else items.push(item);
  }
  if (items.length === 0 && errors.length === 0) errors.push('The list has a header but no tokens');
  return { items, errors };
}

function setImage(item: MintItem, cell: { image?: MintItem['data']['image']; imageFile?: string }): void {
  if (cell.image) item.data.image = cell.image;
  if (cell.imageFile) item.imageFile = cell.imageFile;
}

function text(value: unknown): { _: string } | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'object' && value !== null && '_' in value) return value as { _: string };
  return { _: String(value) };
}

/** `data.attributes` of a JSON token, each checked against the schema (an unknown name is a problem too). */
function jsonAttributes(raw: Record<string, unknown>, schema: CollectionSchema | null | undefined, problems: string[], where: string): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  const given: string[] = [];
  const known = Object.values(schema?.attributesSchema ?? {}).map((a) => a.name._);
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    const definition = attributeByName(schema, key);
    if (definition) given.push(definition.name._);
    check(problems, `${where}, attribute ${key}`, () => {
      if (!definition) throw new Error(`the collection schema has no such attribute${known.length ? ` (it has ${known.join(', ')})` : ''}`);
      attributes[definition.name._] = attributeValue(definition, value);
    });
  }
  const missing = missingProblem(schema, given, where);
  if (missing) problems.push(missing);
  return attributes;
}

function fromJson(value: unknown, schema: CollectionSchema | null | undefined, files: ImageFiles): MintListResult {
  const list = Array.isArray(value) ? value : (value as { tokens?: unknown })?.tokens;
  if (!Array.isArray(list)) return { items: [], errors: ['The JSON must be an array of tokens, or {"tokens": [...]}'] };
  const items: MintItem[] = [];
  const errors: string[] = [];
  list.forEach((entry, index) => {
    const where = `Token ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      errors.push(`${where}: expected an object like {"name": "…", "image": "…"}`);
      return;
    }
    const record = entry as Record<string, unknown>;
    // The API's own item shape {owner?, data, properties?} is taken as it is.
    const data = (typeof record.data === 'object' && record.data !== null ? record.data : record) as Record<string, unknown>;
    const item: MintItem = { data: {}, where, ownerWhere: `${where}, owner`, imageWhere: `${where}, image` };
    const problems: string[] = [];
    const name = text(data.name);
    const description = text(data.description);
    if (name) item.data.name = name;
    if (description) item.data.description = description;
    if (typeof data.image === 'string') check(problems, `${where}, image`, () => setImage(item, imageCell(data.image as string, files)));
    else if (data.image && typeof data.image === 'object') item.data.image = data.image as MintItem['data']['image'];
    if (data.attributes && typeof data.attributes === 'object') {
      const attributes = jsonAttributes(data.attributes as Record<string, unknown>, schema, problems, where);
      if (Object.keys(attributes).length) item.data.attributes = attributes;
    }
    if (record.owner !== undefined && record.owner !== null && record.owner !== '') check(problems, `${where}, owner`, () => (item.owner = accountAddress(String(record.owner))));
    if (Array.isArray(record.properties)) item.properties = record.properties as Property[];
    if (problems.length) errors.push(...problems);
    else items.push(item);
  });
  return { items, errors };
}

/**
 * Tokens from the text of a list: JSON when it starts with `[` or `{`, CSV otherwise. `fileNames`
 * are the image files picked beside the list, which its image column may name; `leftOut` the
 * files picked but left out, with the reason a row naming one is told.
 */
export function parseMintList(
  source: string,
  schema?: CollectionSchema | null,
  fileNames: Iterable<string> = [],
  leftOut: ReadonlyMap<string, string> = new Map()
): MintListResult {
  const files: ImageFiles = { picked: new Set(fileNames), leftOut };
  const trimmed = source.trim();
  // CSV keeps its leading lines, so line numbers are the file's.
  if (trimmed === '') return { items: [], errors: ['The list is empty'] };
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      return { items: [], errors: [`This is not valid JSON: ${(error as Error).message}`] };
    }
    return fromJson(value, schema, files);
  }
  return fromCsv(source, schema, files);
}

/** One token per picked image, named after the file (`fox.png` → "fox"). */
export function itemsFromImages(fileNames: Iterable<string>): MintItem[] {
  return [...fileNames].map((file) => ({ data: { name: { _: file.replace(/\.[^.]+$/, '') } }, imageFile: file, where: `Image ${file}`, imageWhere: `Image ${file}` }));
}

/** `items` in groups of at most `size` (a create-multiple call takes at most 120). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
