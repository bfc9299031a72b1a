// Many tokens from a list: a JSON file (an array of tokens) or CSV text (a header row, one token
// per line). Pure: parsing only; uploads and minting are the page's. Every problem is reported
// with its row, so a person can fix the file.
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
}

export interface MintListResult {
  items: MintItem[];
  errors: string[];
}

/** A CSV parser for the files people export from spreadsheets: quotes, doubled quotes, CRLF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(source);
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === delimiter) {
      row.push(cell.trim());
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(cell.trim());
      if (row.some((v) => v !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell.trim());
  if (row.some((v) => v !== '')) rows.push(row);
  return rows;
}

/** Comma unless the first line has more semicolons or tabs (European spreadsheets, TSV). */
function detectDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => first.split(c).length - 1;
  const candidates: [string, number][] = [
    [',', count(',')],
    [';', count(';')],
    ['\t', count('\t')]
  ];
  candidates.sort((a, b) => b[1] - a[1]);
  return candidates[0][1] > 0 ? candidates[0][0] : ',';
}

const NUMBER_TYPES = new Set(['number', 'integer', 'float', 'timestamp']);

function attributeByName(schema: CollectionSchema | null | undefined, name: string): AttributeSchema | undefined {
  const wanted = name.trim().toLowerCase();
  return Object.values(schema?.attributesSchema ?? {}).find((a) => Object.values(a.name).some((n) => String(n).toLowerCase() === wanted));
}

/** A typed attribute value from text, as the schema wants it. */
export function attributeValue(definition: AttributeSchema, raw: unknown): unknown {
  const one = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    // Enum values are matched by the service; numeric ones are compared as numbers.
    if (definition.enumValues) return NUMBER_TYPES.has(definition.type) && text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    if (definition.type === 'boolean') return /^(true|yes|1)$/i.test(text);
    if (NUMBER_TYPES.has(definition.type)) {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) throw new Error(`"${text}" is not a number`);
      return n;
    }
    return text;
  };
  if (definition.isArray) {
    const list = Array.isArray(raw) ? raw : String(raw).split(/[|;]/).map((s) => s.trim()).filter(Boolean);
    return list.map(one);
  }
  return one(raw);
}

/** An image column: a picked file's name, a CID or a URL. */
function imageCell(value: string, fileNames: ReadonlySet<string>): Pick<MintItem, 'imageFile'> & Pick<MintItem['data'], 'image'> {
  const text = value.trim();
  if (text === '') return {};
  if (fileNames.has(text)) return { imageFile: text };
  if (!isCid(text) && !/^(https?:|ipfs:|data:|\/)/i.test(text)) {
    throw new Error(`image "${text}" is not a URL, a CID, or the name of one of the picked image files`);
  }
  return { image: imageInput(text) };
}

const KNOWN_COLUMNS = ['name', 'description', 'image', 'owner'];

function fromCsv(text: string, schema: CollectionSchema | null | undefined, fileNames: ReadonlySet<string>): MintListResult {
  const rows = parseCsv(text);
  const errors: string[] = [];
  const items: MintItem[] = [];
  if (rows.length === 0) return { items, errors: ['The list is empty'] };
  const first = rows[0].map((c) => c.toLowerCase());
  const hasHeader = first.includes('name') || first.includes('image');
  const header = hasHeader ? rows[0] : ['name', 'image', 'description'];
  const body = hasHeader ? rows.slice(1) : rows;
  type Column =
    | { kind: 'name' | 'description' | 'image' | 'owner' }
    | { kind: 'property'; key: string }
    | { kind: 'attribute'; name: string; definition: AttributeSchema }
    | { kind: 'unknown'; title: string };
  const columns = header.map((title): Column => {
    const lower = title.trim().toLowerCase();
    if (KNOWN_COLUMNS.includes(lower)) return { kind: lower as 'name' | 'description' | 'image' | 'owner' };
    if (lower.startsWith('prop:')) return { kind: 'property', key: title.trim().slice(5) };
    const attribute = attributeByName(schema, lower.startsWith('attr:') ? lower.slice(5) : lower);
    if (attribute) return { kind: 'attribute', name: attribute.name._, definition: attribute };
    return { kind: 'unknown', title };
  });
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
  body.forEach((cells, index) => {
    const line = index + (hasHeader ? 2 : 1);
    const item: MintItem = { data: {} };
    try {
      columns.forEach((column, i) => {
        const value = cells[i] ?? '';
        if (value === '') return;
        switch (column.kind) {
          case 'name':
            item.data.name = { _: value };
            break;
          case 'description':
            item.data.description = { _: value };
            break;
          case 'owner':
            item.owner = value;
            break;
          case 'image':
            setImage(item, imageCell(value, fileNames));
            break;
          case 'property':
            (item.properties ??= []).push({ key: column.key, value });
            break;
          case 'attribute':
            try {
              (item.data.attributes ??= {})[column.name] = attributeValue(column.definition, value);
            } catch (e) {
              throw new Error(`${column.name}: ${(e as Error).message}`);
            }
            break;
        }
      });
      items.push(item);
    } catch (error) {
      errors.push(`Line ${line}: ${(error as Error).message}`);
    }
  });
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

function fromJson(value: unknown, schema: CollectionSchema | null | undefined, fileNames: ReadonlySet<string>): MintListResult {
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
    const item: MintItem = { data: {} };
    try {
      const name = text(data.name);
      const description = text(data.description);
      if (name) item.data.name = name;
      if (description) item.data.description = description;
      if (typeof data.image === 'string') setImage(item, imageCell(data.image, fileNames));
      else if (data.image && typeof data.image === 'object') item.data.image = data.image as MintItem['data']['image'];
      if (data.attributes && typeof data.attributes === 'object') {
        const attributes: Record<string, unknown> = {};
        for (const [key, raw] of Object.entries(data.attributes as Record<string, unknown>)) {
          const definition = attributeByName(schema, key);
          attributes[definition?.name._ ?? key] = definition ? attributeValue(definition, raw) : raw;
        }
        item.data.attributes = attributes;
      }
      if (typeof record.owner === 'string' && record.owner) item.owner = record.owner;
      if (Array.isArray(record.properties)) item.properties = record.properties as Property[];
      items.push(item);
    } catch (error) {
      errors.push(`${where}: ${(error as Error).message}`);
    }
  });
  return { items, errors };
}

/**
 * Tokens from the text of a list: JSON when it starts with `[` or `{`, CSV otherwise. `fileNames`
 * are the image files picked beside the list, which its image column may name.
 */
export function parseMintList(source: string, schema?: CollectionSchema | null, fileNames: Iterable<string> = []): MintListResult {
  const names = new Set(fileNames);
  const trimmed = source.trim();
  if (trimmed === '') return { items: [], errors: ['The list is empty'] };
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      return { items: [], errors: [`This is not valid JSON: ${(error as Error).message}`] };
    }
    return fromJson(value, schema, names);
  }
  return fromCsv(trimmed, schema, names);
}

/** One token per picked image, named after the file (`fox.png` → "fox"). */
export function itemsFromImages(fileNames: Iterable<string>): MintItem[] {
  return [...fileNames].map((file) => ({ data: { name: { _: file.replace(/\.[^.]+$/, '') } }, imageFile: file }));
}

/** `items` in groups of at most `size` (a create-multiple call takes at most 120). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
