import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, READS, readStream } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { eventSource } from './unnamed4-event-source.ts';
import {
  axiosRetry,
  googleApiCore,
  goRetryableHttp,
  istioSidecar,
  seeded,
  stripe,
  tenacity,
  underPolicy,
  undiciRetry,
  uuid,
} from './unnamed4-kit.ts';

/**
 * Round 4 of the misbehaving clients: the documented default of a widely used library that breaks
 * exactly one duty (the sentence it breaks is quoted above it).
 */
export const MISBEHAVING_4: FaultyClient2[] = [
  // "A sample client makes up to 4 attempts": go-retryablehttp's RetryMax defaults to 4 retries, five
  // attempts (1, 2, 4, 8 s apart: growing; one operation, so no spread is judged).
  {
    does: 'uses Go hashicorp/go-retryablehttp with its defaults (RetryMax 4) through four 500s: five attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      await underPolicy(t, () => api(t, a, 'GET', '/providers'), goRetryableHttp, 4);
    },
  },
  // "A sample client makes up to 4 attempts": an application retrying as the guidance says (4 attempts,
  // 500 ms doubling plus up to 250 ms) behind an Istio sidecar that retries each 503 once by itself
  // (attempts: 2): the layers multiply, six attempts of one read reach the service.
  {
    does: 'retries as the guidance says (4 attempts) behind an Istio sidecar with its default retry (attempts: 2 on 503): six attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(29);
      fault(t, { kind: 'unavailable', route: 'listConnectors', retryAfterSeconds: 1, count: 5 });
      const guidance = (n: number) => 500 * 2 ** n + random() * 250;
      const r = await underPolicy(
        t,
        () => istioSidecar(t, () => api(t, a, 'GET', '/connectors'), random),
        (n, x) => (x.status === 429 || x.status >= 500 ? Math.max(guidance(n), x.retryAfterMs) : undefined),
        3,
      );
      if (r.status !== 200) throw new Error(`answered ${r.status}`);
    },
  },
  // "Retry guidance: retry only after rate_limited and internal.": tenacity's default retry= is
  // retry_if_exception_type() (every exception), and raise_for_status() makes a 400 one.
  {
    does: "wraps requests' raise_for_status() in tenacity with its default retry= (every exception), so a capability check refused with 400 is retried",
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const wait = tenacity({ multiplier: 0.5, max: 10, jitter: 0.25, random: seeded(7) });
      const body = { connectorId: 'x', capability: 'orders.read' }; // connectorId: length 2 to 120
      const r = await underPolicy(
        t,
        () => api(t, a, 'POST', '/capabilities', { body }),
        (n) => wait(n),
        2,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "Clients retry with growing intervals and slight random spread.": Polly v8's RetryStrategyOptions
  // default to BackoffType Constant, Delay 2 s, UseJitter false, 3 retries: 2 s, 2 s, 2 s.
  {
    does: 'uses a Polly v8 ResiliencePipeline with RetryStrategyOptions defaults (3 retries, constant 2 s, no jitter)',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      await underPolicy(
        t,
        () => api(t, a, 'GET', '/connectors'),
        (_n, x) => (x.status >= 500 ? 2000 : undefined),
        3,
      );
    },
  },
  // "Retry guidance: retry only after rate_limited and internal.": stripe-node retries a 409 (Stripe's
  // lock conflict); here a 409 is capability_denied, which no retry fixes ("have the capability released").
  {
    does: 'uses stripe-node style retries, which retry a 409: a create refused with capability_denied is sent again with its key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(13);
      const body = { ...CONNECTION, capabilities: ['orders.read', 'no.such.capability'] };
      const key = `stripe-node-retry-${uuid(random)}`;
      const r = await underPolicy(t, () => api(t, a, 'POST', '/connections', { body, key }), stripe(random), 2);
      if (r.json?.error?.code !== 'capability_denied') throw new Error(`answered ${r.json?.error?.code}`);
    },
  },
  // "Clients retry with growing intervals and slight random spread.": undici's RetryHandler has no
  // jitter: every operation retries 500 ms, then 1 s after its failures, in lockstep with the others.
  {
    does: 'uses Node undici RetryAgent (maxRetries 3, minTimeout 500, timeoutFactor 2, no jitter) on five reads',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 2 });
        await underPolicy(t, () => api(t, a, 'GET', path), undiciRetry('GET'), 3);
      }
    },
  },
  // "respect the wait time of the response": google-api-core's Retry never reads Retry-After; its first
  // full-jitter draw (up to 1 s) comes before the 2 s the 429 asked for.
  {
    does: "uses google-api-core's default Retry on a 429 with Retry-After: 2, drawing its full-jitter wait without reading the header",
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
      const r = await underPolicy(t, () => api(t, a, 'GET', '/capabilities'), googleApiCore(seeded(17)), 5);
      if (r.status !== 200) throw new Error(`answered ${r.status}`);
    },
  },
  // "Clients retry with growing intervals": axios-retry's default retryDelay is noDelay: three retries
  // at once.
  {
    does: 'uses axios-retry with its defaults (retries 3, retryDelay noDelay): three immediate retries of a read',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      const policy = axiosRetry({ method: 'GET', delay: 'none', random: seeded(19) });
      await underPolicy(t, () => api(t, a, 'GET', '/connections'), policy, 3);
    },
  },
  // "respect the wait time of the response": a k6 script iterates at its fixed sleep(1) and never looks
  // at Retry-After (k6 does not retry; the next iteration is the repeat).
  {
    does: 'runs a k6-style script that reads every second with sleep(1) and ignores the Retry-After: 2 of the 429s it meets',
    fails: ['retry.respects-retry-after'],
    options: { rateLimit: { limit: 4, windowSeconds: 6 } },
    async run(t) {
      const a = auth(t, undefined, 3600);
      for (let iteration = 0; iteration < 8; iteration++) {
        await api(t, a, 'GET', '/connectors');
        await sleepOn(t, 1000);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID": an EventSource fails for good on a non-200 answer
  // (a restart's 503); the page's onerror makes a new EventSource, which starts without Last-Event-ID.
  {
    does: 'is a page whose onerror replaces an EventSource failed by a restart 503 with a new EventSource(url), which sends no Last-Event-ID',
    fails: ['stream.resume-from-last-read'],
    options: { stream: { retryMs: 300 } },
    async run(t) {
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 1_000, count: 1 });
      const publishTwo = () => {
        void t.sandbox.control.setStatus({ status: 'degraded' });
        void t.sandbox.control.setStatus({ status: 'operational' });
      };
      const first = await eventSource(t, '/api/public/v1/stream', { reconnects: 1, onOpen: publishTwo });
      if (first.end !== 'failed') throw new Error(`the EventSource ${first.end}`);
      await sleepOn(t, 2_000); // the page's own reconnect timer
      await eventSource(t, '/api/public/v1/stream', { reconnects: 0, onOpen: publishTwo });
    },
  },
  // "resumes ... by sending Last-Event-ID or the query parameter cursor (last number read)": Kafka
  // commits the offset of the next record to read (record.offset() + 1); sent as the cursor, one is skipped.
  {
    does: 'commits Kafka-style offsets (the last record read + 1) and resumes the stream with the committed offset',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      const committed = (ids.at(-1) ?? 0) + 1;
      await sleepOn(t, 200);
      await readStream(t, a, { cursor: committed, idleMs: 400, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
];
