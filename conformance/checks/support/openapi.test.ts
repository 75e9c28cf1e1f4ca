import { describe, expect, it } from 'vitest';
import {
  deref,
  documentPathKey,
  findOperation,
  type OpenApiLike,
  operationsOf,
  serverBasePath,
  successContent,
} from './openapi.ts';

const op = { responses: {} };

describe("the target's OpenAPI document read through its servers", () => {
  it('puts the first server’s base path before every path, absolute or relative', () => {
    expect(serverBasePath({ servers: [{ url: '/' }] })).toBe('');
    expect(serverBasePath({ servers: [{ url: 'https://api.example/api/public/v1/' }] })).toBe('/api/public/v1');
    expect(serverBasePath({ servers: [{ url: '/api/public/v1' }] })).toBe('/api/public/v1');
    // Relative to where the document is served (…/api/public/v1/openapi.json).
    expect(serverBasePath({ servers: [{ url: '.' }] })).toBe('/api/public/v1');
    expect(serverBasePath({})).toBe('');
  });

  it('finds the interface operations in a document with relative paths', () => {
    const doc = { servers: [{ url: '/api/public/v1' }], paths: { '/': { get: op }, '/providers': { get: op } } };
    expect(operationsOf(doc).map((o) => `${o.method} ${o.path}`)).toEqual([
      'GET /api/public/v1',
      'GET /api/public/v1/providers',
    ]);
    expect(findOperation(doc, 'GET', '/api/public/v1/providers')).toBe(op);
    expect(findOperation(doc, 'GET', '/api/public/v1')).toBe(op);
    const full = { servers: [{ url: '/' }], paths: { '/api/public/v1/providers': { get: op } } };
    expect(findOperation(full, 'get', '/api/public/v1/providers')).toBe(op);
    expect(findOperation(full, 'GET', '/api/public/v1/connectors')).toBeUndefined();
  });

  it('follows local references: path items in components.pathItems, responses in components.responses', () => {
    const content = { 'application/json': { schema: { type: 'object' } } };
    const doc = {
      servers: [{ url: 'https://{env}.ncs.example/api/public/v1', variables: { env: { default: 'sandbox' } } }],
      paths: { '/providers': { $ref: '#/components/pathItems/Providers' } },
      components: {
        pathItems: { Providers: { get: { responses: { '200': { $ref: '#/components/responses/Ok' } } } } },
        responses: { Ok: { description: 'ok', content } },
      },
    };
    // A path item that is a reference is legal OpenAPI 3.1; the kit's type lists operations only.
    const typed = doc as unknown as OpenApiLike;
    expect(operationsOf(typed).map((o) => `${o.method} ${o.path}`)).toEqual(['GET /api/public/v1/providers']);
    expect(findOperation(typed, 'GET', '/api/public/v1/providers')).toBe(doc.components.pathItems.Providers.get);
    expect(successContent(typed, 'GET', '/api/public/v1/providers')).toEqual({
      content,
      at: ['components', 'responses', 'Ok', 'content'],
    });
    // A reference chain is followed; one leading nowhere, or outside the document, is left as it is.
    expect(deref(doc, { $ref: '#/components/pathItems/Missing' }, ['x']).value).toBeUndefined();
    expect(deref(doc, { $ref: 'other.json#/a' }, ['x'])).toEqual({ value: { $ref: 'other.json#/a' }, at: ['x'] });
  });

  it('finds a path among many keys through one index per document; a paths array holds no operations', () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) paths[`/x/${i}`] = { get: {} };
    paths['/providers'] = { get: { operationId: 'listProviders' } };
    const doc = { servers: [{ url: '/api/public/v1' }], paths } as unknown as OpenApiLike;
    expect(documentPathKey(doc, '/api/public/v1/providers')).toBe('/providers');
    expect(findOperation(doc, 'GET', '/api/public/v1/providers')?.operationId).toBe('listProviders');
    // An array's indices are not path keys (a hostile document's 1,000,000-entry array is no path list).
    const list = { paths: [{ get: {} }] } as unknown as OpenApiLike;
    expect(documentPathKey(list, '0')).toBeUndefined();
    expect(findOperation(list, 'GET', '0')).toBeUndefined();
  });
});
