import { describe, expect, it } from 'vitest';
import { documentedMaximum, largestDocumentedPage } from './documented-page.ts';

const doc = {
  openapi: '3.1.0',
  servers: [{ url: '/api/public/v1' }],
  paths: {
    '/webhooks/{id}/deliveries': {
      get: {
        parameters: [
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', maximum: 500 } },
        ],
      },
    },
    '/audit-log': { get: { parameters: [{ name: 'limit', in: 'query', schema: { maximum: 50 } }] } },
  },
};

describe('page sizes a document allows', () => {
  it('finds the page-size parameter of a templated path and caps the size the kit asks', () => {
    expect(largestDocumentedPage(doc, '/api/public/v1/webhooks/wh_1/deliveries', 200)).toEqual({ per_page: '200' });
    expect(largestDocumentedPage(doc, '/api/public/v1/audit-log', 200)).toEqual({ limit: '50' });
    expect(documentedMaximum(doc, '/api/public/v1/audit-log', 'limit')).toBe(50);
  });

  it('asks nothing where the document states no maximum or no such operation', () => {
    expect(largestDocumentedPage(doc, '/api/public/v1/webhooks/wh_1', 200)).toBeUndefined();
    expect(largestDocumentedPage({ paths: {} }, '/api/public/v1/audit-log', 200)).toBeUndefined();
  });
});
