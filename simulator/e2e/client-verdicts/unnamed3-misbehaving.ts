import { held, sleepOn, untilHeld } from '../harness.ts';
import {
  api,
  auth,
  CONNECTION,
  draws,
  fault,
  publish,
  READS,
  type Reply,
  readStream,
  withWaits,
} from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { forwardProxy, viaProxy } from './unnamed3-kit.ts';

const always = () => true;

/**
 * Round 3 of the misbehaving clients: each breaks exactly one duty, in a way rounds 1 and 2 did not
 * (the interface sentence it breaks is quoted above it).
 */
export const MISBEHAVING_3: FaultyClient2[] = [
  // "Retry guidance: retry only after rate_limited and internal." A 400 is not fixed by another header.
  {
    does: 'repeats a create refused with 400, key and body unchanged, after switching its Service-Version',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'X' }; // scopeLabel: length 2 to 120
      const attempt = (n: number) =>
        api(t, a, 'POST', '/connections', {
          body,
          key: 'version-blame-0001',
          version: n ? '2026-06-12' : '2026-07-01',
        });
      const r = await withWaits(t, attempt, [300], always);
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an interceptor stamping a fresh key on
  // every HTTP attempt defeats it, however well the retry layer waits.
  {
    does: 'stamps a fresh Idempotency-Key in a transport interceptor, so its retry after a 429 (Retry-After waited) carries a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      let n = 0;
      const stamped = () => `interceptor-${String(++n).padStart(6, '0')}`;
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      await withWaits(t, () => api(t, a, 'POST', '/connections', { body: CONNECTION, key: stamped() }), [
        (r: Reply) => r.retryAfterMs + 90,
      ]);
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a hedge is a second attempt of the
  // same operation and needs its key; under a new key both copies commit.
  {
    does: 'hedges a slow create with a second copy under a new key after 150 ms, takes the first answer and cancels the other',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 600, count: 2 });
      const send = (key: string, signal: AbortSignal) =>
        t
          .fetch(`${t.baseUrl}/api/public/v1/connections`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${a.token}`,
              'x-service-tenant': a.tenant,
              'service-version': '2026-07-01',
              'content-type': 'application/json',
              'idempotency-key': key,
            },
            body: JSON.stringify(CONNECTION),
            signal,
          })
          .then((res) => res.json())
          .catch(() => undefined);
      const [first, hedge] = [new AbortController(), new AbortController()];
      const before = held(t);
      const one = send('hedge-new-key-0001', first.signal);
      await untilHeld(t, before);
      await sleepOn(t, 150);
      const two = send('hedge-new-key-0002', hedge.signal);
      await untilHeld(t, before, 2);
      await sleepOn(t, 450); // the first answer leaves 600 ms after it came
      await Promise.race([one, two]);
      first.abort();
      hedge.abort();
      await sleepOn(t, 200); // the cancelled copy's latency ends: it commits too, and is recorded
    },
  },
  // "respect the wait time of the response": Retry-After in seconds is what the service sends.
  {
    does: 'parses Retry-After only as an HTTP date, so the seconds it is sent fall back to its own 200 ms backoff',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const r = draws([0.3, 0.6]);
      // An IMF-fixdate ("Wed, 26 Nov 2026 13:31:00 GMT") or nothing: "1" is no date.
      const IMF_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
      const fromDate = (x: Reply) => {
        const text = String(x.retryAfterMs / 1000);
        return IMF_DATE.test(text) ? Date.parse(text) - Date.now() : undefined;
      };
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 1, count: 2 });
      const waits = [0, 1].map((k) => (x: Reply) => fromDate(x) ?? 200 * 2 ** k + Math.floor(r() * 100));
      await withWaits(t, () => api(t, a, 'GET', '/capabilities'), waits);
    },
  },
  // "respect the wait time of the response": Retry-After is the least wait, not the cap of a draw.
  {
    does: 'draws its wait uniformly between 0 and Retry-After (full jitter capped by it, not floored)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const r = draws([0.3, 0.6]);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      const capped = (x: Reply) => Math.floor(r() * x.retryAfterMs);
      await withWaits(t, () => api(t, a, 'GET', '/connectors'), [capped, capped]);
    },
  },
  // "Clients retry with growing intervals": base + attempt where base * 2 ** attempt was meant.
  {
    does: 'grows its waits by a millisecond per attempt (300, 301, 302 ms: a + where a * was meant)',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      await withWaits(t, () => api(t, a, 'GET', '/connections'), [300, 301, 302]);
    },
  },
  // "with growing intervals and slight random spread": a spread of ±1 % is no spread.
  {
    does: 'doubles its waits with a random factor of 0.99 to 1.01 (a spread of a millisecond or two)',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const r = draws([0.1, 0.9, 0.4, 0.6, 0.2, 0.8, 0.5, 0.3, 0.7, 0.0]);
      const factor = () => 0.99 + r() * 0.02;
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 2 });
        await withWaits(t, () => api(t, a, 'GET', path), [
          () => Math.round(150 * factor()),
          () => Math.round(300 * factor()),
        ]);
      }
    },
  },
  // "A sample client makes up to 4 attempts": a breaker whose half-open probes fail goes on probing.
  {
    does: 'opens a circuit breaker after three failures and probes twice more (30 s, then 60 s cool-down): five attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      const r = draws([0.4, 0.9]);
      const waits = [() => 250 + Math.floor(r() * 200), () => 600 + Math.floor(r() * 200), () => 30_000, () => 60_000];
      await withWaits(t, () => api(t, a, 'GET', '/providers'), waits);
    },
  },
  // "use a new key for each new operation": two workers counting keys each from 1, without a prefix.
  {
    does: 'runs two workers that each count their keys from 1 without a worker prefix, so both send job-0001',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const worker = async (name: string) => {
        let n = 0;
        for (let i = 0; i < 2; i++) {
          const key = `job-${String(++n).padStart(4, '0')}`;
          await api(t, a, 'POST', '/connections', { body: { ...CONNECTION, scopeLabel: `${name} ${i}` }, key });
        }
      };
      await worker('North venue');
      await worker('South venue');
    },
  },
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)":
  // after a stream.reset the last number read is what came after it, not the expired cursor.
  {
    does: 'keeps resuming with its expired cursor after a stream.reset, not the numbers it read since',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const first = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      const stale = first.at(-1) ?? 0;
      fault(t, { kind: 'cursor_expired', count: 1 });
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      await readStream(t, a, { cursor: stale, count: 2, onOpen: () => publish(t, a.tenant, 2) });
      await sleepOn(t, 100);
      await readStream(t, a, { cursor: stale, idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier.": a proxy's allowlist
  // that drops it makes every call arrive without one.
  {
    does: 'sits behind a forward proxy whose header allowlist drops Service-Version',
    fails: ['version.service-version-sent'],
    async run(t) {
      const allowed = new Set([
        'authorization',
        'x-service-tenant',
        'idempotency-key',
        'content-type',
        'content-length',
      ]);
      const proxy = await forwardProxy({ add: { via: '1.1 corp-gw' }, allow: (h) => allowed.has(h) });
      try {
        const a = auth(t);
        await viaProxy(t, proxy, a, 'GET', '/providers');
        await viaProxy(t, proxy, a, 'POST', '/connections', { body: CONNECTION, key: 'allowlist-create-1' });
      } finally {
        await proxy.close();
      }
    },
  },
  // "Sample calls send a header Service-Version with the version identifier.": a client built for a
  // version not published tries it first on every call and falls back to 2026-07-01 after the 400.
  // Falling back is the remedy ("check the request against the published description"), no repeat.
  {
    does: 'tries an unpublished newer Service-Version (2026-09-01) first on each call and falls back to 2026-07-01 after the 400',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const negotiated = async (method: string, path: string, o: { body?: unknown; key?: string } = {}) => {
        const first = await api(t, a, method, path, { ...o, version: '2026-09-01' });
        if (first.status !== 400) throw new Error(`the unpublished version got ${first.status}`);
        return api(t, a, method, path, { ...o, version: '2026-07-01' });
      };
      await negotiated('GET', '/connectors');
      const r = await negotiated('POST', '/connections', { body: CONNECTION, key: 'negotiated-0001' });
      if (r.status !== 200) throw new Error(`the fallback create answered ${r.status}`);
    },
  },
  // "Tokens are short-lived and are renewed, not extended." — renewed when near expiry, not with 80 % left.
  {
    does: 'refreshes its token at 20 % of a 600 s lifetime (renew with 80 % left, misread), calling every 5 s',
    fails: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 600);
      let age = 0;
      for (let i = 0; i < 110; i++) {
        if (age >= 120) {
          a = auth(t, undefined, 600);
          age = 0;
        }
        await api(t, a, 'GET', '/providers');
        await t.sandbox.control.advanceClock(5);
        age += 5;
      }
    },
  },
];
