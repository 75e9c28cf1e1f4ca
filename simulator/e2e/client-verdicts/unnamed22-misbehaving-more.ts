import { randomUUID } from 'node:crypto';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 22, more misbehaving clients (keys, streams, browsers, Service-Version, tokens): each must fail
 * exactly the rules it breaks, with evidence.
 */
export const MISBEHAVING_MORE_22: FaultyClient[] = [
  // "the same key with the same content": a requests `AuthBase` subclass stamps `Idempotency-Key: uuid4()` in
  // its `__call__`, which runs on every `session.post`; the job's own `for attempt in range(3)` loop re-posts
  // the create 1 s after a 500 after commit, under a new key.
  {
    does: 'is a Python requests job whose AuthBase stamps a uuid4 Idempotency-Key per session.post, re-posting a create 1 s after a 500 after commit',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Requests Ramen' };
      const first = await createWith(t, a, body, `py-${randomUUID()}`);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      ok('again', await createWith(t, a, body, `py-${randomUUID()}`));
    },
  },
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)": a
  // Debezium-style consumer flushes its offset every 5 messages; cut after 7, it resumes from the flushed 5.
  {
    does: 'is a stream consumer flushing its offset every 5 messages (offset.flush style), cut after 7 and resuming from the flushed 5',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 7, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 7) });
      if (ids.length < 7) throw new Error(`read ${ids.length}`);
      const flushed = ids[4];
      await sleeper(t)(2_000);
      await readStream(t, a, { cursor: flushed, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "After an interruption, the client resumes without gaps": an aiohttp-sse-client consumer whose reconnect
  // path builds a new EventSource object (to renew headers), which starts without the last id: a gap.
  {
    does: 'is a Python aiohttp-sse-client consumer that builds a new EventSource after a cut, losing its last id (no Last-Event-ID, no cursor)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length === 0) throw new Error('read nothing');
      await sleeper(t)(5_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "never sent from a browser": a Grafana Infinity data source in its frontend ("browser") parser mode sends
  // the query from the viewer's browser, the bearer token from the data source's custom headers.
  {
    does: 'is a Grafana Infinity data source in frontend parser mode reading the connections from the viewer’s browser with the token from its headers',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const headers = {
        origin: 'https://grafana.partner.example',
        referer: 'https://grafana.partner.example/d/venues/connections',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
        'sec-fetch-dest': 'empty',
      };
      await api(t, auth(t), 'GET', '/connections', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": an OpenAPI Generator client
  // whose template sends `Service-Version: {{appVersion}}`, the document's info.version "1.0.0".
  {
    does: 'is an OpenAPI Generator typescript-fetch client sending Service-Version: 1.0.0 (its template’s appVersion) on three reads',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        await api(t, a, 'GET', path, { version: '1.0.0' });
        await sleeper(t)(700);
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a requests-oauthlib job whose error hook calls
  // fetch_token() on every 4xx, 429 included: three 1 h tokens replaced within seconds while Retry-After is
  // waited out.
  {
    does: 'is a requests-oauthlib job fetching a new 1 h token after each of three 429s (Retry-After 1 waited out) on one read',
    fails: ['auth.token-reused'],
    async run(t) {
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 3 });
      let r = await get(t, auth(t, undefined, 3_600), '/connectors?providerId=tillcraft');
      for (let n = 0; n < 3 && r.status === 429; n++) {
        await sleeper(t)(r.retryAfterMs + 200 * 2 ** n);
        r = await get(t, auth(t, undefined, 3_600), '/connectors?providerId=tillcraft');
      }
      ok('read', r);
    },
  },
  // "request a new access token" (401, token expired): a Home Assistant `rest` sensor with a bearer token
  // pasted into secrets.yaml keeps polling every 30 s after the token expired.
  {
    does: 'is a Home Assistant rest sensor with a pasted 10-minute token, polling the connections every 30 s on past its expiry (five 401s)',
    fails: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 600);
      for (let i = 0; i < 24; i++) {
        await get(t, a, '/connections');
        await sleeper(t)(30_000);
      }
    },
  },
  // "Clients retry with growing intervals": a Rust apalis worker with `RetryLayer::new(RetryPolicy::retries(3))`
  // and no backoff layer re-runs the job at once; its create, under the job's key, is sent four times in a
  // row through three 500s.
  {
    does: 'is a Rust apalis worker (RetryPolicy::retries(3), no backoff) re-running a keyed create at once through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Apalis Arancini' };
      let r = await createWith(t, a, body, 'apalis-job-01JD3Y8K2Q');
      for (let n = 0; n < 3 && r.status === 500; n++) r = await createWith(t, a, body, 'apalis-job-01JD3Y8K2Q');
      ok('create', r);
    },
  },
  // "The same key with different content yields idempotency_conflict": a Python worker builds capabilities
  // from a set(); the retry after a 500 after commit runs in a new process (another PYTHONHASHSEED), so the
  // list comes out in another order under the same key: other content, answered 409.
  {
    does: 'is a Python worker building capabilities from a set(), whose retry in a new process sends them in another order under the same key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Pyset Paella', capabilities: ['orders.read', 'payments.refund'] };
      const key = 'pyworker-venue-5531-create';
      const first = await createWith(t, a, body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_200);
      const again = await createWith(t, a, { ...body, capabilities: ['payments.refund', 'orders.read'] }, key);
      if (again.status !== 409) throw new Error(`answered ${again.status}`);
    },
  },
  // "use a new key for each new operation": a client's key helper is called once per job, and the job creates a
  // connection and then registers a webhook under that one key; the service answers idempotency_conflict.
  {
    does: 'is a job sending its one key with a connection create and then, 10 s later, with a webhook registration (answered idempotency_conflict)',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'job-4471-shared-key';
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Routes Rosti' }, key));
      await sleeper(t)(10_000);
      const hook = await api(t, a, 'POST', '/webhooks', {
        body: { url: 'http://127.0.0.1:9/hooks/routes', events: ['order.created'] },
        key,
      });
      if (hook.json?.error?.code !== 'idempotency_conflict') throw new Error(`answered ${hook.status}`);
    },
  },
];
