import { describe, expect, it } from 'vitest';
import { exampleOf, operationUrl, operationsOf, schemaText } from './openapi';

const doc = {
  paths: {
    '/sandbox/v1/tokens/transfer': {
      patch: {
        tags: ['tokens'],
        summary: 'Transfer a token',
        parameters: [{ name: 'use', in: 'query', schema: { type: 'string', enum: ['Build', 'Submit'] } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  { type: 'object', properties: { collectionId: { type: 'integer' }, to: { type: 'string', description: 'Recipient' } }, required: ['collectionId', 'to'] },
                  { type: 'object', properties: { signerPayloadJSON: { type: 'object' } } }
                ]
              }
            }
          }
        }
      }
    },
    '/sandbox/v1/ipfs/upload-file': { post: { tags: ['ipfs'], summary: 'Store a file' } }
  }
};

describe('openapi helpers', () => {
  it('lists operations with the raw-arguments body first', () => {
    const [transfer, upload] = operationsOf(doc);
    expect(transfer).toMatchObject({ method: 'PATCH', path: '/sandbox/v1/tokens/transfer', tag: 'tokens', upload: false });
    expect(exampleOf(transfer.body)).toEqual({ collectionId: 1, to: '' });
    expect(schemaText(transfer.body)).toBe('{\n  collectionId: integer;\n  to: string;  // Recipient\n}');
    expect(upload.upload).toBe(true);
  });

  it('resolves absolute and base-relative paths', () => {
    expect(operationUrl('http://a.test/sandbox/v1', '/sandbox/v1/balance').href).toBe('http://a.test/sandbox/v1/balance');
    expect(operationUrl('https://rest.example/opal/v1', '/collections').href).toBe('https://rest.example/opal/v1/collections');
  });
});
