import { describe, expect, it } from 'vitest';
import { createSandbox } from '../app/sandbox.ts';

describe('POST /_sandbox/runs in the control plane OpenAPI document', () => {
  it('is described from its zod schemas (body bounds, answer fields) beside the routed control plane', async () => {
    const sandbox = createSandbox({ adminToken: 'ncs_admin_test' });
    const res = await sandbox.core.handle({ method: 'GET', path: '/_sandbox/openapi.json', query: {}, headers: {} });
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.body ?? '{}');
    const op = doc.paths['/_sandbox/runs']?.post;
    expect(op).toMatchObject({ operationId: 'controlCreateRun', security: [{ admin: [] }] });
    const body = op.requestBody.content['application/json'].schema;
    expect(body.properties.ttlSeconds).toMatchObject({ type: 'integer', minimum: 1, maximum: 7 * 24 * 3600 });
    const ok = JSON.stringify(op.responses['200']);
    for (const field of ['runId', 'token', 'tenant', 'adminToken', 'expiresAt']) expect(ok).toContain(`"${field}"`);
    expect(Object.keys(op.responses)).toContain('429');
    // The other control routes are still there, and still routed.
    expect(doc.paths['/_sandbox/clock']).toBeDefined();
  });
});
