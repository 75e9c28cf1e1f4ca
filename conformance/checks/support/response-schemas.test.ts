import { describe, expect, it } from 'vitest';
import type { OpenApiLike } from './openapi.ts';
import { schemaKey } from './response-schemas.ts';

const doc = (port: number, type = 'string') =>
  ({
    openapi: '3.1.0',
    servers: [{ url: `http://127.0.0.1:${port}` }],
    paths: {
      '/a': {
        servers: [{ url: `http://127.0.0.1:${port}/x` }],
        get: { servers: [{ url: `http://127.0.0.1:${port}` }], responses: { 200: { description: 'ok' } } },
      },
    },
    components: {
      schemas: { A: { type } },
      securitySchemes: {
        o: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `http://127.0.0.1:${port}/t` } } },
      },
    },
  }) as unknown as OpenApiLike;

describe('schemaKey: the key compiled schemas are kept by', () => {
  it('is the same for a deployment started again on another port', () => {
    expect(schemaKey(doc(4010))).toBe(schemaKey(doc(4020)));
  });
  it('differs where a schema differs', () => {
    expect(schemaKey(doc(4010, 'integer'))).not.toBe(schemaKey(doc(4010)));
  });
});
