// Round 9: the MSW handlers inside a partner's tests: fake timers, streamed and FormData bodies, a request
// aborted mid-way, 500 concurrent calls, keepalive, non-ASCII header values, two sandboxes in one process.
// Expect what the HTTP server answers: envelopes, no 500, no hang, state kept apart.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../index.ts';

const one = createSandbox({ activationDelayMs: 0, rateLimit: false });
const two = createSandbox({
  baseUrl: 'https://two.sandbox.example',
  altBaseUrl: 'https://two-alt.sandbox.example',
  rateLimit: false,
});
const server = setupServer(...one.handlers, ...two.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => vi.useRealTimers());
afterAll(() => server.close());

const realSetTimeout = globalThis.setTimeout;
/** The promise, or 'hung' after `ms` of real time (captured before any fake timers). */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'hung'>((done) => realSetTimeout(() => done('hung'), ms))]);

const body = (label: string) => ({
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: label,
  capabilities: ['orders.read'],
});
const headers = (auth: { token: string; tenant: string }, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${auth.token}`,
  'x-service-tenant': auth.tenant,
  'service-version': '2026-07-01',
  ...extra,
});
const url = (s: { baseUrl: string }, p: string) => `${s.baseUrl}/api/public/v1${p}`;

async function envelope(res: Response, status: number, code?: string) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const json = JSON.parse(text) as { ok: boolean; error?: { code: string; message: string } };
  if (code) {
    expect(json.ok, text).toBe(false);
    expect(json.error?.code, text).toBe(code);
    expect(text).not.toMatch(/\n\s+at |node:internal/);
  }
  return json;
}

describe('round 9: the MSW handlers in a partner test suite', () => {
  it('under vi.useFakeTimers() a call is still answered (the partner never advances the timers)', async () => {
    const auth = one.issueToken();
    vi.useFakeTimers();
    const res = await within(fetch(url(one, '/providers'), { headers: headers(auth) }), 5000);
    vi.useRealTimers();
    expect(res, 'the fetch never settled under fake timers').not.toBe('hung');
    if (res !== 'hung') await envelope(res, 200);
  }, 20_000);

  it('a ReadableStream request body (duplex half) is read like the same JSON', async () => {
    const auth = one.issueToken();
    const bytes = new TextEncoder().encode(JSON.stringify(body('r9 streamed body')));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 10));
        c.enqueue(bytes.subarray(10));
        c.close();
      },
    });
    const res = await fetch(url(one, '/connections'), {
      method: 'POST',
      headers: headers(auth, { 'content-type': 'application/json', 'idempotency-key': 'r9-stream-body-1' }),
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await envelope(res, 200);
  });

  it('a FormData body to POST /connections is refused 400 invalid_request, nothing created', async () => {
    const auth = one.issueToken();
    const before = await one.state.connections.count();
    const form = new FormData();
    for (const [k, v] of Object.entries(body('r9 form'))) form.append(k, String(v));
    const res = await fetch(url(one, '/connections'), {
      method: 'POST',
      headers: headers(auth, { 'idempotency-key': 'r9-form-body-1' }),
      body: form,
    });
    expect([400, 415]).toContain(res.status);
    await envelope(res, res.status, res.status === 400 ? 'invalid_request' : undefined);
    expect(await one.state.connections.count()).toBe(before);
  });

  it('a creation aborted mid-request, then retried with its key, makes one connection', async () => {
    const auth = one.issueToken();
    const before = await one.state.connections.count();
    const init = () => ({
      method: 'POST',
      headers: headers(auth, { 'content-type': 'application/json', 'idempotency-key': 'r9-abort-key-1' }),
      body: JSON.stringify(body('r9 aborted')),
    });
    const abort = new AbortController();
    const first = fetch(url(one, '/connections'), { ...init(), signal: abort.signal }).catch((e: Error) => e);
    queueMicrotask(() => abort.abort());
    await first;
    const res = await fetch(url(one, '/connections'), init());
    await envelope(res, 200);
    expect(await one.state.connections.count()).toBe(before + 1);
  });

  it('500 concurrent calls from one token all get an answer of the interface (no 500, no hang)', async () => {
    const auth = one.issueToken();
    const calls = Array.from({ length: 500 }, () => fetch(url(one, '/providers'), { headers: headers(auth) }));
    const all = await within(Promise.all(calls), 60_000);
    expect(all).not.toBe('hung');
    if (all === 'hung') return;
    const statuses = all.map((r) => r.status);
    await Promise.all(all.map((r) => r.arrayBuffer()));
    expect(new Set(statuses)).toEqual(new Set([200]));
  }, 90_000);

  it('fetch with keepalive: true is answered', async () => {
    const auth = one.issueToken();
    await envelope(await fetch(url(one, '/providers'), { headers: headers(auth), keepalive: true }), 200);
  });

  it('non-ASCII (Latin-1) header values: tenant 403/400 envelope, key 400 invalid_request', async () => {
    const auth = one.issueToken();
    const tenant = await fetch(url(one, '/connections'), { headers: headers({ ...auth, tenant: 'harbour-kitchéns' }) });
    expect([400, 403]).toContain(tenant.status);
    await envelope(tenant, tenant.status, tenant.status === 403 ? 'forbidden' : 'invalid_request');
    const key = await fetch(url(one, '/connections'), {
      method: 'POST',
      headers: headers(auth, { 'content-type': 'application/json', 'idempotency-key': 'r9-clé-unicode-1' }),
      body: JSON.stringify(body('r9 latin1 key')),
    });
    await envelope(key, 400, 'invalid_request');
  });

  it('two sandboxes in one process keep tokens, connections and clocks apart', async () => {
    const a = one.issueToken();
    const b = two.issueToken();
    await envelope(await fetch(url(two, '/providers'), { headers: headers(a) }), 401, 'unauthorized');
    await envelope(await fetch(url(one, '/providers'), { headers: headers(b) }), 401, 'unauthorized');
    const before = await two.state.connections.count();
    const res = await fetch(url(one, '/connections'), {
      method: 'POST',
      headers: headers(a, { 'content-type': 'application/json', 'idempotency-key': 'r9-two-sandboxes-1' }),
      body: JSON.stringify(body('r9 only in one')),
    });
    await envelope(res, 200);
    expect(await two.state.connections.count()).toBe(before);
    const t2 = Date.parse((await two.control.clock()).now ?? '');
    await one.control.advanceClock(86_400);
    const t2after = Date.parse((await two.control.clock()).now ?? '');
    expect(Math.abs(t2after - t2)).toBeLessThan(60_000);
  });
});
