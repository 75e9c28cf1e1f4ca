import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';

// Hardening round 5: the attacks that did not hold, each over real HTTP against one server. The ones
// that held are listed in README, Reliability ("Attacks tried (round 5)").
let s: RunningServer;
beforeAll(async () => {
  s = await serve({ port: 0, altPort: 0, rateLimit: false, inspector: false, runs: { max: 3 } });
});
afterAll(() => s?.close());

const admin = () => ({ authorization: `Bearer ${s.sandbox.adminToken}` });
const auth = () => ({ authorization: `Bearer ${s.token}`, 'x-service-tenant': s.tenant });
type Failure = { ok: false; error: { code: string; detail: string; hint: string } };

const createRun = (body: string, headers: Record<string, string> = {}, base = s.baseUrl) =>
  fetch(`${base}/_sandbox/runs`, {
    method: 'POST',
    headers: { ...admin(), 'content-type': 'application/json', ...headers },
    body,
  });

describe('attacks round 5: POST /_sandbox/runs, answered in front of the pipeline', () => {
  it('refuses a key given twice (it made a 7-day run of a 1-second one), like every other route', async () => {
    const res = await createRun('{"ttlSeconds":1,"ttlSeconds":604800}');
    const json = (await res.json()) as Failure;
    expect(res.status).toBe(400);
    expect(json.error.code).toBe('invalid_request');
    expect(json.error.detail).toMatch(/"ttlSeconds" twice/);
    expect(s.sandbox.runs?.count()).toBe(0);
  });

  it('refuses a body that is not JSON by its Content-Type, and an unknown Service-Version', async () => {
    const text = await createRun('{"ttlSeconds":5}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(((await text.json()) as Failure).error.hint).toMatch(/application\/json/);
    const version = await createRun('{"ttlSeconds":5}', { 'service-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(((await version.json()) as Failure).error.detail).toMatch(/Service-Version/);
    expect(s.sandbox.runs?.count()).toBe(0);
  });

  it('refuses a body over the limit (dropped unread, it was taken for none: a default 1-hour run)', async () => {
    const big = `{"ttlSeconds":1,"pad":"${' '.repeat(2 * 1024 * 1024)}"}`;
    const res = await createRun(big);
    const json = (await res.json()) as Failure;
    expect(res.status).toBe(400);
    expect(json.error.detail).toMatch(/larger than this deployment accepts/);
    expect(s.sandbox.runs?.count()).toBe(0);
  });

  it('answers GET, HEAD and OPTIONS with 404 and Allow: POST (was: "No such control-plane route", no Allow)', async () => {
    for (const method of ['GET', 'OPTIONS', 'HEAD']) {
      const res = await fetch(`${s.baseUrl}/_sandbox/runs`, { method, headers: admin() });
      expect(res.status, method).toBe(404);
      expect(res.headers.get('allow'), method).toBe('POST');
      if (method !== 'HEAD') expect(((await res.json()) as Failure).error.detail).toMatch(/answers POST/);
    }
  });

  it("ends a stream opened with a run's token when the run ends (it stayed open, holding the closed run)", async () => {
    const res = await createRun('{"ttlSeconds":1}');
    const run = ((await res.json()) as { data: { token: string; tenant: string } }).data;
    const started = Date.now();
    const stream = await fetch(`${s.baseUrl}/api/public/v1/stream`, {
      headers: { authorization: `Bearer ${run.token}`, 'x-service-tenant': run.tenant },
      signal: AbortSignal.timeout(5000),
    });
    expect(stream.status).toBe(200);
    const text = await stream.text(); // resolves only when the server ends the stream
    expect(text).toMatch(/event: stream\.closed\ndata: \{"reason":"token_expired"/);
    expect(Date.now() - started).toBeLessThan(3000);
    while (s.sandbox.runs?.count()) await new Promise((r) => setTimeout(r, 50));
  });

  it('holds its cap under concurrent creations on both ports (each saw the count before the others opened)', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createRun('{"ttlSeconds":30}', {}, i % 2 ? (s.altBaseUrl ?? s.baseUrl) : s.baseUrl).then((r) => r.status),
      ),
    );
    expect(statuses.filter((x) => x === 200)).toHaveLength(3);
    expect(statuses.filter((x) => x === 429)).toHaveLength(9);
    expect(s.sandbox.runs?.count()).toBe(3);
  });
});

describe('attacks round 5: webhook receiver URLs', () => {
  const register = (url: string, key: string) =>
    fetch(`${s.baseUrl}/api/public/v1/webhooks`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ url, events: ['order.paid'] }),
    });

  it('refuses port 0 and an empty user-info (both were stored, the latter verbatim as "http://@127.0.0.1:9/x")', async () => {
    const cases: [string, RegExp][] = [
      ['http://127.0.0.1:0/x', /port 0/],
      ['http://@127.0.0.1:9/x', /credentials/],
      ['http://:@127.0.0.1:9/x', /credentials/],
    ];
    for (const [i, [url, detail]] of cases.entries()) {
      const res = await register(url, `round5-receiver-${i}`);
      const json = (await res.json()) as Failure;
      expect(res.status, url).toBe(400);
      expect(json.error.detail, url).toMatch(detail);
    }
    const list = await fetch(`${s.baseUrl}/api/public/v1/webhooks`, { headers: auth() });
    expect(((await list.json()) as { data: { count: number } }).data.count).toBe(0);
  });
});

describe('attacks round 5: control plane', () => {
  it('refuses sample-event data past 16 KiB (150 triggers with 900 KB held 470 MB in the feed)', async () => {
    const trigger = (size: number) =>
      fetch(`${s.baseUrl}/_sandbox/trigger`, {
        method: 'POST',
        headers: { ...admin(), 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'order.paid', tenant: s.tenant, data: { note: 'x'.repeat(size) } }),
      });
    const big = await trigger(900_000);
    const json = (await big.json()) as Failure;
    expect(big.status).toBe(400);
    expect(json.error.code).toBe('invalid_request');
    expect(json.error.detail).toMatch(/at most 16384/);
    expect((await trigger(1000)).status).toBe(200);
  });
});
