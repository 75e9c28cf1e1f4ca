import { describe, expect, it } from 'vitest';
import { findOperation, operationsOf, serverBasePath } from './openapi.ts';

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
});
