import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { newContext } from '../core/context.ts';
import { ok } from '../core/reply.ts';
import { runOf } from '../core/step.ts';
import type { PlainRequest } from '../core/types.ts';
import { createObservations } from './observation.ts';
import { clientObserver } from './observe.ts';

let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());

const handle = (req: Partial<PlainRequest> & { path: string }) =>
  sandbox.core.handle({ method: 'GET', query: {}, headers: {}, ...req });
const rule = (id: string) => sandbox.clientReport().rules.find((r) => r.id === id)!;

describe('the observer hook', () => {
  it('notes a CORS preflight announcing Authorization, and a token refused before auth (injected fault)', async () => {
    sandbox = createSandbox({ inspector: false });
    const { token, tenant } = sandbox.issueToken();
    await handle({
      method: 'OPTIONS',
      path: '/api/public/v1/providers',
      headers: { origin: 'https://shop.example', 'access-control-request-headers': 'Authorization, x-service-tenant' },
    });
    expect(rule('auth.no-browser-credentials').evidence[0]?.note).toMatch(/preflight from https:\/\/shop\.example/);
    sandbox.control.addFault({ kind: 'internal', route: 'listProviders' });
    const auth = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, 'service-version': '2026-07-01' };
    expect((await handle({ path: '/api/public/v1/providers', headers: auth })).status).toBe(500);
    expect((await handle({ path: '/api/public/v1/providers', headers: auth })).status).toBe(200);
    const bucket = sandbox.verdicts!.observations.buckets({ client: 'harbour-backend' })[0]!;
    expect(bucket.calls.slice().map((c) => c.status)).toEqual([500, 200]);
    expect(rule('retry.only-after-failure').status).toBe('pass');
  });
  it('times calls on the sandbox clock: an advance between a 429 and its retry is waited time', async () => {
    sandbox = createSandbox({ inspector: false });
    const { token, tenant } = sandbox.issueToken(undefined, 3600);
    const auth = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, 'service-version': '2026-07-01' };
    sandbox.control.addFault({ kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 30 });
    expect((await handle({ path: '/api/public/v1/providers', headers: auth })).status).toBe(429);
    sandbox.control.advanceClock(30);
    expect((await handle({ path: '/api/public/v1/providers', headers: auth })).status).toBe(200);
    expect(rule('retry.respects-retry-after').status).toBe('pass');
    expect(rule('retry.respects-retry-after').evidence[0]?.waitsMs?.[0]).toBeGreaterThanOrEqual(30_000);
  });
  it('never changes an answer, even when observing fails', async () => {
    const observations = createObservations();
    observations.bucket = () => {
      throw new Error('broken');
    };
    const step = runOf(clientObserver({ observations }));
    const ctx = newContext({ method: 'GET', path: '/api/public/v1/providers', query: {}, headers: {} }, 'req_1', 0);
    ctx.access = {
      tenant: 't1',
      token: { clientId: 'app', tenants: ['t1'], scopes: [], environment: 'sandbox', issuedAt: 0, expiresAt: 1 },
    };
    const answer = ok({});
    await expect(step(ctx, async () => answer)).resolves.toBe(answer);
    const boom = new Error('handler');
    await expect(step(ctx, async () => Promise.reject(boom))).rejects.toBe(boom);
  });
  it('records nothing for anonymous calls, and nothing at all when switched off', async () => {
    sandbox = createSandbox({ inspector: false });
    await handle({ path: '/api/public/v1' });
    expect(sandbox.verdicts!.observations.buckets()).toEqual([]);
    sandbox.state.close();
    sandbox = createSandbox({ inspector: false, clientVerdicts: false });
    expect(sandbox.verdicts).toBeUndefined();
    expect(() => sandbox.clientReport()).toThrow(/switched off/);
  });
  it('GET /_sandbox/client-report needs the admin token and narrows to a client or tenant', async () => {
    sandbox = createSandbox({ inspector: false });
    const { token, tenant } = sandbox.issueToken();
    await handle({
      path: '/api/public/v1/providers',
      headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant },
    });
    expect((await handle({ path: '/_sandbox/client-report' })).status).toBe(401);
    expect(
      (await handle({ path: '/_sandbox/client-report', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(403);
    const admin = { authorization: `Bearer ${sandbox.adminToken}` };
    const all = JSON.parse((await handle({ path: '/_sandbox/client-report', headers: admin })).body!).data;
    expect(all.observed.calls).toBe(1);
    expect(rule('version.service-version-sent').status).toBe('fail');
    const other = await handle({ path: '/_sandbox/client-report', query: { client: 'nobody' }, headers: admin });
    expect(JSON.parse(other.body!).data).toMatchObject({
      filter: { client: 'nobody' },
      observed: { calls: 0 },
      exitCode: 0,
    });
    const bad = await handle({
      method: 'POST',
      path: '/_sandbox/receiver-check',
      headers: { ...admin, 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"webhookId":""}'),
    });
    expect(bad.status).toBe(400);
  });
});
