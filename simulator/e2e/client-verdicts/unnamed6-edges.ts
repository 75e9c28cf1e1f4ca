import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';

/**
 * Round 6, edges: clients at the border of a rule, each legal or not by a sentence of the interface —
 * a body written again by another language, a key added after a 428, a poller with wide jitter; a failover that dodges a 429 and an absolute eager-refresh threshold.
 */
export const EDGE_WELL_BEHAVED_6: UnnamedClient2[] = [
  // "Sending the same key with the same content returns the same response again": a Node service's
  // create is dropped after the commit; its transactional outbox is replayed by a Python relay, whose
  // json.dumps writes the body anew (ensure_ascii escapes, ", " and ": " separators, its own key
  // order), with the key from the outbox row. The same content, written differently.
  {
    does: 'has a dropped create replayed by a Python outbox relay whose json.dumps writes the body anew (\\u escapes for é, ", " separators, other key order) under the key from the outbox row',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Café Olé – Quai 9' };
      const key = 'outbox-7f1e6a2b-0003';
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const first = await api(t, a, 'POST', '/connections', { body, key });
      if (first.status !== 0) throw new Error(`the dropped create answered ${first.status}`);
      await sleepOn(t, 5_000); // the relay's next poll of the outbox table
      const python = `{"scopeLabel": "Caf\\u00e9 Ol\\u00e9 \\u2013 Quai 9", "capabilities": ["orders.read", "payments.refund"], "environment": "sandbox", "connectorId": "tillcraft-pos-cloud"}`;
      const again = await api(t, a, 'POST', '/connections', { raw: python, key });
      if (again.json?.meta?.replayed !== true) throw new Error(`the relay was not replayed (${again.status})`);
    },
  },
  // "A missing key yields idempotency_required" (remedy: "send the key"): a client written before
  // 2026-06-12 sends its first create without a key; its new middleware, on the 428, adds one and
  // sends the create again at once — the remedy, not a repeat of a refusal.
  {
    does: 'sends a create without a key, gets 428 idempotency_required, and sends it again at once with a key added by its middleware',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Legacy Lounge' };
      const bare = await api(t, a, 'POST', '/connections', { body });
      if (bare.status !== 428) throw new Error(`the keyless create answered ${bare.status}`);
      const keyed = await api(t, a, 'POST', '/connections', { body, key: 'mw-added-5b2e91c0' });
      if (keyed.status !== 200) throw new Error(`the keyed create answered ${keyed.status}`);
    },
  },
  // Polling is not retrying: a Kubernetes operator reads /connections with client-go's
  // wait.JitterUntil(period 10 s, jitterFactor 1.0) — every gap drawn in [10 s, 20 s] — and goes on at
  // that cadence through a 70 s outage (JitterUntil never backs off; it logs the error and waits).
  {
    does: 'polls /connections with client-go wait.JitterUntil (period 10 s, jitterFactor 1.0: gaps of 10-20 s) and keeps that cadence through a 70 s outage',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(651);
      for (let i = 0; i < 16; i++) {
        if (i === 6) fault(t, { kind: 'internal', route: 'listConnections', durationSeconds: 70 });
        await api(t, a, 'GET', '/connections');
        await sleepOn(t, 10_000 * (1 + random()));
      }
    },
  },
  // "The same interface is also offered under a second main-domain address" and the resume sentence:
  // a consumer whose stream to the main address is cut fails over to the second address and resumes
  // there with Last-Event-ID; cut again, it goes back to the main address from the new last number.
  {
    does: 'fails its stream over between the two addresses after each cut, resuming at the other address with Last-Event-ID from the last number read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      let last: number | undefined;
      for (const [i, at] of [t, alternate(t), t].entries()) {
        if (i < 2) fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1, tenant: a.tenant });
        const from = last === undefined ? {} : { cursor: last };
        const ids = await readStream(at, a, {
          ...from,
          idleMs: i < 2 ? 1_500 : 400,
          onOpen: () => publish(t, a.tenant, 2),
        });
        last = ids.at(-1) ?? last;
        await sleepOn(t, 250);
      }
    },
  },
];

export const EDGE_MISBEHAVING_6: FaultyClient2[] = [
  // "Rate limits ... are configured per access, per tenant and per environment" and "respect the wait
  // time of the response": the limit is the access's, whatever the address; a client that takes a 429
  // for one address's and fails over at once to the second address ignores the Retry-After.
  {
    does: 'fails over at once to the second address after a 429 (Retry-After: 2), as if the limit were per address',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const other = alternate(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      const r = await api(t, a, 'GET', '/connectors');
      if (r.status !== 429) throw new Error(`the first read answered ${r.status}`);
      await sleepOn(t, 40); // the failover's DNS lookup and connect
      await api(other, a, 'GET', '/connectors');
    },
  },
  // "Tokens are short-lived and are renewed, not extended": an auth library with an absolute eager-
  // refresh threshold (3 min 45 s, made for 1-hour tokens) given 5-minute tokens renews each token
  // 90 s after it was issued, with 70 % of its life left, for a worker calling every 15 s.
  {
    does: 'uses an auth library whose absolute eager-refresh threshold (3 min 45 s before expiry) renews its 5-minute tokens 90 s after issue, for calls every 15 s',
    fails: ['auth.token-reused'],
    async run(t) {
      const clock = t.sandbox.state.clock;
      const issue = () => {
        const x = t.sandbox.issueToken(undefined, 300);
        return { ...x, expires: Date.parse(x.expiresAt) };
      };
      let held = issue();
      for (let i = 0; i < 20; i++) {
        if (held.expires - clock.now() < 225_000) held = issue();
        await api(t, held, 'GET', i % 2 ? '/connectors' : '/connections');
        await sleepOn(t, 15_000);
      }
    },
  },
  // "use a new key for each new operation": a web backend uses the X-Request-ID of the inbound request
  // as the Idempotency-Key of every modifying call it makes while handling it — a create, then a
  // webhook registration under the same key.
  {
    does: 'uses the X-Request-ID of its inbound request as the Idempotency-Key of every modifying call made for it: a create, then a webhook registration under the same key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const requestId = 'req-01JDXK4QF3M8Z2';
      const body = { ...CONNECTION, scopeLabel: 'Onboarded Venue' };
      const created = await api(t, a, 'POST', '/connections', { body, key: requestId });
      if (created.status !== 200) throw new Error(`the create answered ${created.status}`);
      const hook = { url: 'http://127.0.0.1:9/hooks', events: ['order.created', 'order.paid'] };
      await api(t, a, 'POST', '/webhooks', { body: hook, key: requestId });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier.": an SDK sets the header
  // and the company's API gateway appends it again, so the service receives "2026-07-01, 2026-07-01":
  // no published version. Every call is refused with 400; none is retried.
  {
    does: 'sends Service-Version twice (its SDK sets it, its API gateway appends it again), so each call carries "2026-07-01, 2026-07-01" and is refused',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/connectors', '/capabilities', '/connections']) {
        const res = await t.fetch(`${t.baseUrl}/api/public/v1${path}`, {
          headers: [
            ['authorization', `Bearer ${a.token}`],
            ['x-service-tenant', a.tenant],
            ['service-version', '2026-07-01'],
            ['service-version', '2026-07-01'],
          ],
        });
        await res.body?.cancel();
        await sleepOn(t, 2_000);
      }
    },
  },
];
