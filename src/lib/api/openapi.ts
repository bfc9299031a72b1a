// The OpenAPI 3.1 document, generated from the route table's zod schemas (never written by hand).
import { z } from 'zod';
import { limitsDocument, type ResolvedLimits } from '../limits';
import { atQuery } from './at-block';
import { mutationQuery, signedBody, unsignedBody } from './mutation';
import type { Route } from './route';

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

function queryParameters(schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const full = jsonSchema(schema);
  const props = (full.properties ?? {}) as Record<string, Json>;
  const required = new Set((full.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
}

const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, name: { type: 'string' }, message: { type: 'string' }, details: {} },
      required: ['code', 'name', 'message', 'details']
    }
  }
};

const errorContent = { 'application/json': { schema: errorSchema } };

/** A multipart body with the file in the field `file` (ledger import; routes with their own fields give a `body`). */
const fileBody = { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] };

function requestBody(route: Route & { kind: 'plain' }): Json {
  const content: Json = {};
  const accepts = route.accepts ?? ['json'];
  if (accepts.includes('json')) content['application/json'] = route.body ? { schema: jsonSchema(route.body) } : {};
  if (accepts.includes('multipart')) content['multipart/form-data'] = { schema: route.body ? jsonSchema(route.body) : fileBody };
  if (accepts.includes('zip')) content['application/zip'] = { schema: { type: 'string', format: 'binary' } };
  return route.body || route.rawBody ? { requestBody: { required: true, content } } : {};
}

function operation(route: Route): Json {
  const errors = {
    '400': { description: 'Validation, signature, payload or verification error', content: errorContent },
    ...(route.method === 'GET' ? {} : { '413': { description: 'Body larger than the limit (x-opalite-limits)', content: errorContent } })
  };
  const base = { tags: [route.tag], summary: route.summary, operationId: `${route.method.toLowerCase()}${route.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string) => (c ? c.toUpperCase() : ''))}` };
  switch (route.kind) {
    case 'read':
      return { ...base, parameters: [...queryParameters(route.query), ...queryParameters(atQuery)], responses: { '200': { description: 'OK', content: { 'application/json': {} } }, ...errors } };
    case 'mutation':
      return {
        ...base,
        description: 'An extrinsic: `use` selects Build (default), Sign, Submit, SubmitWatch, Result, GetFee or BuildBatch. The body is the raw arguments, an unsigned payload, or a signed payload.',
        parameters: queryParameters(mutationQuery),
        security: [{ SeedAuth: [] }, {}],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { oneOf: [jsonSchema(route.body), jsonSchema(unsignedBody), jsonSchema(signedBody)] } } }
        },
        responses: {
          [route.method === 'POST' ? '201' : '200']: { description: 'Payload, signature, hash or result, by `use`', content: { 'application/json': {} } },
          ...errors,
          '429': { description: 'Submit: the pool has no room for this account now (its share taken and the pool half full, or the pool full); retry after `Retry-After` seconds', content: errorContent }
        }
      };
    case 'plain':
      return {
        ...base,
        parameters: [...queryParameters(route.query), ...(route.atBlock ? queryParameters(atQuery) : [])],
        ...requestBody(route),
        responses: { [route.method === 'POST' ? '201' : '200']: { description: 'OK', content: { 'application/json': {} } }, ...errors }
      };
  }
}

export function openApiDocument(routes: Route[], network: string, limits: ResolvedLimits): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    // Router parameters (`/query/:endpoint/...`) are OpenAPI path templates (`{endpoint}`).
    const path = `/${network}/v1${route.path.replace(/:(\w+)/g, '{$1}')}`;
    const op = operation(route);
    const inPath = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (inPath.length) op.parameters = [...inPath, ...((op.parameters as Json[] | undefined) ?? [])];
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Opalite: Unique Network REST API v1 (sandbox)',
      version: '1.0.0',
      description:
        'Every path also answers without `v1`, and with singular resource roots (`/collection`, `/token`). ' +
        'Writes take `Content-Type: application/json` (uploads `multipart/form-data`). ' +
        `Bodies are limited to ${limits.maxJsonBytes} bytes of JSON and ${limits.maxUploadBytes} bytes of upload (413 beyond); ` +
        'every bound is listed in `x-opalite-limits`.',
      'x-opalite-limits': limitsDocument(limits)
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { SeedAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Seed <mnemonic or //Dev URI>' } } },
    paths
  };
}
