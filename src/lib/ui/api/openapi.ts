// Reading an OpenAPI 3 document for the API page: its operations, a readable shape of each
// schema, and an example body to start from.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  default?: unknown;
  nullable?: boolean;
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  [key: string]: unknown;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  parameters: Parameter[];
  body: JsonSchema | null;
  /** `multipart/form-data` with a `file` field (uploads). */
  upload: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolveRef(doc: Record<string, unknown>, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const path = schema.$ref.replace(/^#\//, '').split('/');
  let node: unknown = doc;
  for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part];
  return (node as JsonSchema | undefined) ?? schema;
}

export function operationsOf(doc: Record<string, unknown>): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const content = ((op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content ?? {}) as Record<string, { schema?: JsonSchema }>;
      let body = resolveRef(doc, content['application/json']?.schema) ?? null;
      // Mutations accept raw arguments or a payload; the raw arguments come first.
      if (body?.oneOf?.length) body = resolveRef(doc, body.oneOf[0]) ?? body;
      const upload = !!content['multipart/form-data'] || /upload-file$/.test(path);
      out.push({
        id: (op.operationId as string) ?? `${method}-${path}`,
        method: method.toUpperCase(),
        path,
        summary: (op.summary as string) ?? '',
        description: (op.description as string) ?? '',
        tag: ((op.tags as string[] | undefined) ?? ['other'])[0],
        parameters: ((op.parameters as Parameter[] | undefined) ?? []).map((p) => ({ ...p, schema: resolveRef(doc, p.schema) })),
        body,
        upload
      });
    }
  }
  return out;
}

function typeName(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (schema.enum) return schema.enum.map((e) => JSON.stringify(e)).join(' | ');
  if (schema.oneOf || schema.anyOf) return (schema.oneOf ?? schema.anyOf ?? []).map(typeName).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeName(schema.items)}[]`;
  if (type === 'object' || schema.properties) return 'object';
  return type ?? 'any';
}

/** A TypeScript-like outline of a schema, two levels deep. */
export function schemaText(schema: JsonSchema | null | undefined, indent = '', depth = 0): string {
  if (!schema) return 'any';
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if ((type === 'object' || schema.properties) && schema.properties && depth < 3) {
    const required = new Set(schema.required ?? []);
    const lines = Object.entries(schema.properties).map(([name, prop]) => {
      const inner = prop.properties || (prop.type === 'array' && prop.items?.properties) ? schemaText(prop.type === 'array' ? prop.items : prop, `${indent}  `, depth + 1) + (prop.type === 'array' ? '[]' : '') : typeName(prop);
      const note = prop.description ? `  // ${prop.description.split('\n')[0].slice(0, 90)}` : '';
      return `${indent}  ${name}${required.has(name) ? '' : '?'}: ${inner};${note}`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return typeName(schema);
}

/** A starting body: required fields with placeholder values of the right type. */
export function exampleOf(schema: JsonSchema | null | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.oneOf?.length) return exampleOf(schema.oneOf[0], depth + 1);
  if (schema.anyOf?.length) return exampleOf(schema.anyOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default: {
      if (!schema.properties) return {};
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = exampleOf(schema.properties[name], depth + 1);
      return out;
    }
  }
}

/**
 * The URL an operation answers at: the document's paths are absolute on the origin (Opalite:
 * `/sandbox/v1/...`) or relative to the base URL (a service that publishes `/collections`).
 */
export function operationUrl(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) return new URL(path, base.origin);
  return new URL(basePath + path, base.origin);
}
