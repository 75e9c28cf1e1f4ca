import fc from 'fast-check';
import type { Operation } from 'openapi-backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../contract/openapi.ts';
import { ROUTES } from '../contract/route-table.ts';
import { fastValidationFor } from './fast-validation.ts';
import { createOpenApiBackend } from './router.ts';

// The fast path must report exactly what openapi-backend's validateRequest reports, for any input.
describe('fast request validation', () => {
  const api = createOpenApiBackend(buildOpenApiDocument());
  beforeAll(() => api.init());

  const text = fc.oneof(
    fc.constantFrom('', 'sandbox', 'pos', 'orders.read', 'x', 'tillcraft-pos-cloud', '2026-07-01', 'bench-key-0001'),
    fc.string({ maxLength: 130 }),
  );
  const json = fc.oneof(
    fc.record({ connectorId: text, capability: text, environment: text }, { requiredKeys: [] }),
    fc.record(
      {
        connectorId: text,
        environment: text,
        scopeLabel: text,
        capabilities: fc.array(text, { maxLength: 30 }),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    ),
    fc.record({ operation: text }, { requiredKeys: [] }),
    fc.constantFrom(undefined, null, [], {}),
    fc.array(fc.anything(), { maxLength: 3 }),
  );
  const query = fc.dictionary(
    fc.constantFrom('category', 'capability', 'providerId', 'version', 'cursor', 'other'),
    fc.oneof(text, fc.array(text, { minLength: 2, maxLength: 3 })),
    { maxKeys: 3 },
  );
  const headers = fc.record(
    {
      'x-service-tenant': text,
      'idempotency-key': text,
      'service-version': text,
      'content-type': fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'APPLICATION/JSON',
      ),
    },
    { requiredKeys: [] },
  );

  it('agrees with validateRequest on every route (property)', () => {
    const routes = ROUTES.filter((r) => r.kind !== 'sse');
    fc.assert(
      fc.property(
        fc.constantFrom(...routes),
        query,
        headers,
        json,
        fc.constantFrom('con_1', 'a'.repeat(201), ''),
        (route, q, h, body, id) => {
          const op = api.router.getOperation(route.id) as Operation;
          const path = route.path.replace('{connectionId}', id);
          const params = api.router.parseRequest({ method: route.method, path, headers: {} }, op).params ?? {};
          const fast = fastValidationFor(op, api.validator.getRequestValidatorsForOperation(route.id) ?? []);
          expect(fast).toBeDefined();
          const slow =
            api.validator.validateRequest({ method: route.method, path, headers: h, query: q, body }, op).errors ?? [];
          expect(fast!.validate(params, { headers: h, query: q, body })).toEqual(slow);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leaves operations with cookie or JSON-content query parameters to the general path', () => {
    const op = {
      operationId: 'x',
      path: '/x',
      method: 'get',
      parameters: [{ in: 'cookie', name: 'c', schema: { type: 'string' } }],
    } as unknown as Operation;
    expect(fastValidationFor(op, [])).toBeUndefined();
  });
});
