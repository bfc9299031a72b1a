// The CSV a creator fills in: a template whose header fits the collection's schema (name,
// description, image, each attribute by its schema name, owner) with one example row, and rows
// made from picked images (one per image that no row names yet). Pure: text in, text out.
import { detectDelimiter, parseCsv } from './mint-list';
import type { AttributeSchema, CollectionSchema } from './types';

/** The template's columns, in order: the fixed ones around the schema's attributes. */
export function templateColumns(schema: CollectionSchema | null | undefined): string[] {
  const attributes = Object.values(schema?.attributesSchema ?? {}).map((a) => String(a.name._));
  return ['name', 'description', 'image', ...attributes, 'owner'];
}

/** A value the schema accepts for `definition`, to show the form of a cell. */
export function exampleValue(definition: AttributeSchema): string {
  const first = Object.values(definition.enumValues ?? {})[0];
  const one = first !== undefined ? String(first._) : EXAMPLES[definition.type] ?? 'text';
  return definition.isArray ? `${one}|${one}` : one;
}

const EXAMPLES: Record<string, string> = {
  string: 'text',
  number: '1.5',
  float: '1.5',
  integer: '1',
  timestamp: '1700000000',
  boolean: 'true',
  url: 'https://example.com',
  isoDate: '2025-01-31',
  time: '12:30',
  colorRgba: '#ff8800'
};

/** One CSV cell: quoted when it holds the delimiter, a quote or a line break. */
export function csvCell(value: string, delimiter = ','): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(cells: readonly string[], delimiter = ','): string {
  return cells.map((c) => csvCell(c, delimiter)).join(delimiter);
}

/** The template: the header and one example row (owner left empty: the token is the signer's). */
export function templateCsv(schema: CollectionSchema | null | undefined): string {
  const definitions = Object.values(schema?.attributesSchema ?? {});
  const example = ['Token 1', 'The first token', 'token-1.png', ...definitions.map(exampleValue), ''];
  return `${csvLine(templateColumns(schema))}\n${csvLine(example)}\n`;
}

/** A token name from an image's file name: `red-fox.png` → "red-fox". */
export function nameOfFile(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, '');
}

/** The image cells of a CSV list (by its header's image column); null when the text is no CSV with a header. */
function imageCells(text: string): { header: string[]; imageColumn: number; nameColumn: number; images: Set<string>; delimiter: string } | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('[') || trimmed.startsWith('{')) return null;
  const { rows, errors } = parseCsv(text);
  if (errors.length || rows.length === 0) return null;
  const header = rows[0].cells;
  const lower = header.map((c) => c.toLowerCase());
  if (!lower.includes('name') && !lower.includes('image')) return null;
  const imageColumn = lower.indexOf('image');
  const images = new Set(imageColumn < 0 ? [] : rows.slice(1).map((r) => r.cells[imageColumn] ?? '').filter(Boolean));
  return { header, imageColumn, nameColumn: lower.indexOf('name'), images, delimiter: detectDelimiter(text) };
}

/** The picked files no row of `text` names in its image column (all of them for an empty list). */
export function imagesWithoutRow(text: string, fileNames: readonly string[]): string[] {
  if (text.trim() === '') return [...fileNames];
  const list = imageCells(text);
  if (!list) return [];
  return fileNames.filter((name) => !list.images.has(name));
}

/**
 * `text` with one row more per file of `fileNames` (named after the file, its image column naming
 * it, the other cells empty to fill); an empty list starts with the template's header. Null when
 * the list is not CSV with a header, or has no image column to name the file in.
 */
export function addImageRows(text: string, fileNames: readonly string[], schema: CollectionSchema | null | undefined): string | null {
  if (text.trim() === '') {
    const columns = templateColumns(schema);
    const rows = fileNames.map((file) => csvLine(columns.map((c) => (c === 'name' ? nameOfFile(file) : c === 'image' ? file : ''))));
    return `${csvLine(columns)}\n${rows.join('\n')}\n`;
  }
  const list = imageCells(text);
  if (!list || list.imageColumn < 0) return null;
  const rows = fileNames.map((file) =>
    csvLine(
      list.header.map((_, i) => (i === list.imageColumn ? file : i === list.nameColumn ? nameOfFile(file) : '')),
      list.delimiter
    )
  );
  return `${text.replace(/\s+$/, '')}\n${rows.join('\n')}\n`;
}
