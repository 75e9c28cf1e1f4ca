import { describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox.ts';

const get = (path: string, headers: Record<string, string> = {}) => ({ method: 'GET', path, query: {}, headers });

describe('core', () => {
  it('turns an unexpected exception into 500 internal without internals', async () => {
    const errors: unknown[] = [];
    const sandbox = createSandbox({ onError: (e) => errors.push(e) });
    const core = sandbox.core;
    // Swap one handler for a broken one through the public option.
    const { createCore } = await import('./create-core.ts');
    const broken = createCore({
      state: sandbox.state,
      servers: [sandbox.baseUrl],
      onError: (e) => errors.push(e),
      handlers: {
        describeService: () => {
          throw new Error('secret internal /work/main/x.ts:12');
        },
      },
    });
    const res = await broken.handle(get('/api/public/v1'));
    expect(res.status).toBe(500);
    const body = JSON.parse(res.body!);
    expect(body.error.code).toBe('internal');
    expect(res.body).not.toContain('secret internal');
    expect(body.meta.requestId).toBe(res.headers['x-request-id']);
    expect(errors).toHaveLength(1);
    expect((await core.handle(get('/api/public/v1'))).status).toBe(200);
  });

  it('refuses to start when a route has no handler', async () => {
    const sandbox = createSandbox();
    const { createCore } = await import('./create-core.ts');
    expect(() =>
      createCore({ state: sandbox.state, servers: [], handlers: { listProviders: undefined as never } }),
    ).toThrow(/listProviders/);
  });

  it('logs one entry per request', async () => {
    const lines: string[] = [];
    const sandbox = createSandbox({
      onResponse: (e) => lines.push(`${e.method} ${e.path} ${e.status} ${e.requestId}`),
    });
    const res = await sandbox.core.handle(get('/api/public/v1/providers'));
    expect(lines).toEqual([`GET /api/public/v1/providers 401 ${res.headers['x-request-id']}`]);
  });

  it('traces every step of the interface pipeline, in order, for a created connection and its replay', async () => {
    const lines: string[] = [];
    const sandbox = createSandbox({ trace: (l) => lines.push(l) });
    const { token, tenant } = sandbox.issueToken();
    const post = () =>
      sandbox.core.handle({
        method: 'POST',
        path: '/api/public/v1/connections',
        query: {},
        headers: {
          authorization: `Bearer ${token}`,
          'x-service-tenant': tenant,
          'idempotency-key': 'trace-key-0001',
          'content-type': 'application/json',
        },
        body: new TextEncoder().encode(
          JSON.stringify({
            connectorId: sandbox.state.fixtures.connectors[0]?.id,
            environment: 'sandbox',
            scopeLabel: 'Trace',
            capabilities: [sandbox.state.fixtures.connectors[0]?.capabilities[0]],
          }),
        ),
      });
    const first = await post();
    const id = first.headers['x-request-id'];
    const mine = lines.filter((l) => l.startsWith(`${id} `)).map((l) => l.slice(id?.length ?? 0).trim());
    expect(mine).toEqual([
      'POST /api/public/v1/connections -> interface',
      // Client verdicts are on by default: their observer is first in line.
      'interface client-observer',
      'interface version',
      'interface browser-guard',
      'interface route-match',
      'interface auth',
      'interface rate-limit',
      'interface faults',
      'interface idempotency-key',
      'interface validate',
      'interface idempotency',
      'interface handler createConnection',
      `interface answered ${first.status}`,
    ]);
    const again = await post();
    expect(JSON.parse(again.body ?? '').meta.replayed).toBe(true);
    // The replay ends at the idempotency step: no handler line.
    const replayId = again.headers['x-request-id'];
    expect(lines.filter((l) => l.startsWith(`${replayId} `) && l.includes('handler'))).toEqual([]);
    sandbox.state.close();
  });
});
