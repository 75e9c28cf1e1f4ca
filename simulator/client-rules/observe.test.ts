import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { newContext } from '../core/context.ts';
import { ok } from '../core/reply.ts';
import { runOf } from '../core/step.ts';
import type { PlainRequest } from '../core/types.ts';
import { createClock } from '../lib/clock.ts';
import { routeSpelling } from './call-place.ts';
import { createObservations } from './observation.ts';
import { clientObserver } from './observe.ts';

let sandbox: Sandbox;
const CONNECTION = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Harbour Kitchen Deck',
  capabilities: ['orders.read'],
};
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
  it('notes a bearer token in the query (EventSource cannot send headers) with Origin as a credential from a browser', async () => {
    sandbox = createSandbox({ inspector: false });
    const { token } = sandbox.issueToken();
    await handle({
      path: '/api/public/v1/providers',
      query: { access_token: token },
      headers: { origin: 'https://venue.example' },
    });
    expect(rule('auth.no-browser-credentials').status).toBe('fail');
    expect(rule('auth.no-browser-credentials').evidence[0]?.note).toMatch(
      /token in the query\) sent with Origin https:\/\/venue\.example/,
    );
  });
  it('notes a body by its content as sent, parsed once: key order and spacing do not count, other content does', async () => {
    sandbox = createSandbox({ inspector: false });
    const { token, tenant } = sandbox.issueToken(undefined, 3600);
    const auth = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, 'service-version': '2026-07-01' };
    let n = 0;
    const create = (text: string) =>
      handle({
        method: 'POST',
        path: '/api/public/v1/connections',
        headers: { ...auth, 'idempotency-key': `content-key-${++n}-0001`, 'content-type': 'application/json' },
        body: new TextEncoder().encode(text),
      });
    const { capabilities, connectorId, environment, scopeLabel } = CONNECTION;
    expect((await create(JSON.stringify(CONNECTION))).status).toBe(200);
    expect(
      (await create(` ${JSON.stringify({ scopeLabel, capabilities, environment, connectorId }, null, 2)}`)).status,
    ).toBe(200);
    expect((await create(JSON.stringify({ ...CONNECTION, scopeLabel: 'Harbour Kitchen Pier' }))).status).toBe(200);
    // A refusal before the body is parsed (a wrong content type) is hashed from the raw bytes the same way.
    const refused = await handle({
      method: 'POST',
      path: '/api/public/v1/connections',
      headers: { ...auth, 'idempotency-key': 'content-key-4-0001', 'content-type': 'text/plain' },
      body: new TextEncoder().encode(JSON.stringify({ scopeLabel, capabilities, environment, connectorId })),
    });
    expect(refused.status).toBe(400);
    const calls = sandbox.verdicts?.observations.buckets({ client: 'harbour-backend' })[0]?.calls.slice() ?? [];
    const hashes = calls.map((c) => c.bodyHash);
    expect(hashes).toHaveLength(4);
    expect(hashes[0]).not.toBe(0);
    expect(hashes[1]).toBe(hashes[0]);
    expect(hashes[2]).not.toBe(hashes[0]);
    expect(hashes[3]).toBe(hashes[0]);
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
  it('times a give-up on the sandbox clock: a clock standing still in real time, moved by the client', async () => {
    let real = 1_000;
    const clock = createClock(() => real);
    sandbox = createSandbox({ inspector: false, clock });
    const { token, tenant } = sandbox.issueToken(undefined, 3600);
    const auth = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, 'service-version': '2026-07-01' };
    // A create held (timeout), given up by the client while real time runs on and the sandbox clock does
    // not; it sleeps 300 ms on the sandbox clock and retries with its key.
    sandbox.control.addFault({ kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 900 });
    const gone: NonNullable<PlainRequest['clientGone']> = { at: 0 };
    const body = new TextEncoder().encode(JSON.stringify(CONNECTION));
    const create = (clientGone?: typeof gone) =>
      handle({
        method: 'POST',
        path: '/api/public/v1/connections',
        headers: { ...auth, 'idempotency-key': 'held-create-0001', 'content-type': 'application/json' },
        body,
        ...(clientGone ? { clientGone } : {}),
      });
    const held = create(gone);
    await new Promise((resolve) => setImmediate(resolve));
    real += 5_000; // the runtime notices the give-up 5 s of real time later (a busy machine)
    gone.at = gone.clock ? gone.clock() : Date.now();
    sandbox.control.advanceClock(0.3);
    expect((await create()).status).toBe(200);
    sandbox.control.advanceClock(0.6); // the hold ends: the held call is answered and noted
    expect((await held).status).toBe(0);
    expect(rule('retry.same-key-and-content').status).toBe('pass');
    expect(rule('retry.only-after-failure').status).toBe('pass');
    // The give-up is at the sandbox time it happened (before the 300 ms), not real time moved over.
    const [retry, original] = sandbox.verdicts!.observations.buckets({ client: 'harbour-backend' })[0]!.calls.slice();
    expect(original!.goneAt).toBeGreaterThanOrEqual(original!.at);
    expect(retry!.at - original!.goneAt).toBe(300);
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

describe('paths as the service routes them', () => {
  it('reads repeated and trailing slashes as the route they spell', () => {
    expect(routeSpelling('/api/public/v1/providers/')).toBe('/api/public/v1/providers');
    expect(routeSpelling('/api/public/v1/connections//')).toBe('/api/public/v1/connections');
    // A doubled slash inside is another path: the service does not route it.
    expect(routeSpelling('/api/public/v1//connections')).toBe('/api/public/v1//connections');
    expect(routeSpelling('/')).toBe('/');
    // A path parameter spelled with escapes is the id the router reads; an escaped literal segment is another path.
    expect(routeSpelling('/api/public/v1/connections/%63on%5F1')).toBe('/api/public/v1/connections/con_1');
    expect(routeSpelling('/api/public/v1/connections/a%2Fb')).toBe('/api/public/v1/connections/a%2Fb');
    expect(routeSpelling('/api/public/v1/%70roviders')).toBe('/api/public/v1/%70roviders');
    expect(routeSpelling('/api/public/v1/connections/%E0%A4%A')).toBe('/api/public/v1/connections/%E0%A4%A');
  });
});
