import { sleepOn } from '../harness.ts';
import {
  api,
  auth,
  CONNECTION,
  create,
  draws,
  fault,
  type Reply,
  type UnnamedClient2,
  withWaits,
} from './unnamed-kit.ts';
import { STREAM_CLIENTS_3 } from './unnamed3-well-behaved-streams.ts';

/**
 * Round 3, well-behaved: schedules and lifecycles over long spans of the sandbox clock (a circuit
 * breaker's cool-down, polling until a connection is active, a token that
 * expires during a backoff, the real rate limit) and a retry sent through another URL encoder.
 */
export const SCHEDULE_CLIENTS: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread." and "A sample client makes up to
  // 4 attempts": three attempts, the breaker opens, one probe after a 30 s cool-down is the fourth.
  {
    does: 'opens a circuit breaker after three failures and sends one half-open probe after a 30 s cool-down',
    pass: ['retry.attempt-limit', 'retry.growing-waits', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      const r = draws([0.1, 0.8, 0.7, 0.2]);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 3 });
        const backoff = [() => 250 + Math.floor(r() * 200), () => 600 + Math.floor(r() * 200)];
        const coolDown = () => 30_000;
        const res = await withWaits(t, () => api(t, a, 'GET', path), [...backoff, coolDown]);
        if (res.status !== 200) throw new Error(`the probe answered ${res.status}`);
      }
    },
  },
  // Polling is not retrying; "When exceeded, the service answers 429 with a wait time" and it is waited.
  {
    does: 'polls GET /connections with exponential backoff until its new connection is active, waiting out a 429 on the way',
    pass: ['retry.respects-retry-after'],
    options: { activationDelayMs: 3_000 },
    async run(t) {
      const a = auth(t);
      const created = await create(t, a, 'poll-active-0001');
      const id = created.json?.data?.id;
      let wait = 250;
      for (let poll = 0; poll < 8; poll++) {
        if (poll === 2) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 1, count: 1 });
        const r = await api(t, a, 'GET', '/connections');
        const state = r.json?.data?.connections?.find((c: { id: string }) => c.id === id)?.state;
        if (state === 'active') return;
        await sleepOn(t, Math.max(wait, r.retryAfterMs));
        wait *= 2;
      }
      throw new Error('the connection never became active');
    },
  },
  // "Tokens are short-lived and are renewed" (after a 401: "request a new access token"), and the
  // create's retry keeps its key: "the same key with the same content returns the same response again".
  {
    does: 'has its token expire during a 60 s backoff of a create, renews it after the 401 and retries with the same key',
    pass: ['retry.same-key-and-content', 'auth.token-reused'],
    async run(t) {
      const a = auth(t, undefined, 90);
      await api(t, a, 'GET', '/connectors');
      await t.sandbox.control.advanceClock(40);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { body: CONNECTION, key: 'expired-backoff-01' };
      const first = await withWaits(t, () => api(t, a, 'POST', '/connections', body), [60_000]);
      if (first.status !== 401) throw new Error(`the retry with the expired token answered ${first.status}`);
      const b = auth(t, undefined, 900);
      const again = await api(t, b, 'POST', '/connections', body);
      if (again.status !== 200) throw new Error(`the retry with the new token answered ${again.status}`);
      await api(t, b, 'GET', '/connections');
    },
  },
  // "When exceeded, the service answers 429 with a wait time." The real limit, not an injected fault.
  {
    does: 'runs into the real rate limit with a burst of reads and waits out each 429 Retry-After',
    pass: ['retry.respects-retry-after'],
    options: { rateLimit: { limit: 4, windowSeconds: 3 } },
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities', '/connections', '/providers?category=pos']) {
        const r = await withWaits(t, () => api(t, a, 'GET', path), [(x: Reply) => x.retryAfterMs + 40]);
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      }
    },
  },
  // "Retry guidance: retry only after rate_limited and internal." The retry goes through another URL
  // encoder: the same query, percent-encoded otherwise, is the same content.
  {
    does: 'retries a read through another HTTP stack that percent-encodes its query otherwise',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      const paths = [
        '/connectors?capability=orders.read&providerId=tillcraft',
        '/connectors?capability=orders%2Eread&providerId=till%63raft',
      ];
      await withWaits(t, (n) => api(t, a, 'GET', paths[n] ?? ''), [320]);
    },
  },
  // "A connection that is paused is named as one possible cause of the error capability_denied": the
  // client asks the decision (a POST that changes nothing) until the control plane resumes the
  // connection, keeping its cadence through three 500s: polling, not retrying ("Retry guidance: retry
  // only after rate_limited and internal" is kept; its intervals are the poll's, not a backoff).
  {
    does: 'polls a capability decision (POST) every 2 s while its connection is paused, keeping the cadence through three 500s',
    pass: ['version.service-version-sent', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const created = await create(t, a, 'paused-check-0001');
      const id = String(created.json?.data?.id);
      await t.sandbox.control.setConnectionState(id, 'paused');
      const check = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      for (let i = 0; i < 9; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'checkCapability', count: 3 });
        if (i === 7) await t.sandbox.control.setConnectionState(id, 'active');
        const r = await api(t, a, 'POST', '/capabilities', { body: check });
        if (r.json?.data?.decision?.allowed) return;
        await sleepOn(t, 2_000);
      }
      throw new Error('the capability was never allowed');
    },
  },

  ...STREAM_CLIENTS_3,
];
