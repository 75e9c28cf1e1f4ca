import { api, auth, CONNECTION, fault, READS, type Reply } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { guidanceWait, retried, transient } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { apolloRetryLinkMs, feignDefaultMs, reqDefault, tokioRetry } from './unnamed7-kit.ts';
import { RUN_FAULTS_7 } from './unnamed7-misbehaving-runs.ts';
import { STREAM_FAULTS_7 } from './unnamed7-streams.ts';

/**
 * Round 7, misbehaving: clients of other runtimes and of how work is scheduled, each breaking exactly
 * one duty; the sentence broken is quoted above each.
 */
const STACKS: FaultyClient2[] = [
  // "Clients retry with growing intervals and slight random spread.": Elixir Req's defaults retry
  // GET on 500 after exactly 1 s, 2 s, 4 s, the same for every operation.
  {
    does: 'is an Elixir Req client on its default retry (1 s, 2 s, 4 s, no jitter) over four reads through 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (n, x) => (transient(x) ? reqDefault(n, x) : undefined),
        );
        await sleep(5_000);
      }
    },
  },
  // "A sample client makes up to 4 attempts": OpenFeign's Retryer.Default makes 5, sleeping a 503's
  // Retry-After (capped at its 1 s maxPeriod) between them.
  {
    does: 'is a Spring Cloud OpenFeign client on Retryer.Default (maxAttempts 5), sleeping each 503’s Retry-After of 1 s, five attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listConnectors', retryAfterSeconds: 1, count: 5 });
      await retried(
        sleeper(t),
        () => api(t, a, 'GET', '/connectors'),
        (n, x) => (transient(x) ? feignDefaultMs(n + 1, x) : undefined),
        4,
      );
    },
  },
  // "Access credentials stay in the partner's backend and are never sent from a browser.": a
  // Capacitor (Ionic) app whose WebView calls the service with a token stored on the device.
  {
    does: 'is a Capacitor (Ionic) hybrid app whose WebView calls the service with a token kept on the device (Origin: capacitor://localhost)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const origin = { origin: 'capacitor://localhost' };
      await api(t, a, 'GET', '/connections', { headers: origin });
      await sleeper(t)(2_000);
      await api(t, a, 'GET', '/connectors?category=pos', { headers: origin });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier.": a mobile BFF that
  // fills Service-Version from the app's own version header (X-App-Version: 5.12.0).
  {
    does: 'is a mobile backend-for-frontend that fills Service-Version from the app’s X-App-Version (5.12.0), not with an interface version',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        await api(t, a, 'GET', path, { version: '5.12.0' });
        await sleeper(t)(1_000);
      }
    },
  },
  // "use a new key for each new operation": a GraphQL gateway keying every mutation by operation name
  // and user ("CreateConnection:user-42"), so a person's second venue reuses the first one's key.
  {
    does: 'is a GraphQL gateway keying each mutation by operation name and user id, so one person’s second createConnection (another venue) reuses the first one’s key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'CreateConnection:user-42';
      await api(t, a, 'POST', '/connections', { body: { ...CONNECTION, scopeLabel: 'First Venue' }, key });
      await sleeper(t)(5_000);
      const r = await api(t, a, 'POST', '/connections', { body: { ...CONNECTION, scopeLabel: 'Second Venue' }, key });
      if (r.json?.error?.code !== 'idempotency_conflict') throw new Error(`answered ${r.status}`);
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Pulumi dynamic provider whose
  // create() mints a uuid4 key each call, wrapped in a retry helper: the webhook's create after a 503
  // is sent again under a new key.
  {
    does: 'is a Pulumi dynamic provider whose create() mints a uuid4 key on each call, wrapped in a retry helper: a webhook create answered 503 is sent again under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(741);
      fault(t, { kind: 'unavailable', route: 'createWebhook', retryAfterSeconds: 1, count: 1 });
      const body = { url: 'http://127.0.0.1:9/hooks/pulumi', events: ['order.paid'] };
      await retried(
        sleeper(t),
        () => api(t, a, 'POST', '/webhooks', { body, key: `pulumi-${uuid(random)}` }),
        (n, x) => (transient(x) ? Math.max(x.retryAfterMs, 1_000 * 2 ** n) + Math.floor(random() * 300) : undefined),
      );
    },
  },
  // "respect the wait time of the response": tokio-retry's `ExponentialBackoff::from_millis(10)`
  // without a factor waits base^n ms (10 ms, 100 ms, 1 s), and the closure never reads Retry-After.
  {
    does: 'is a Rust tokio-retry client with ExponentialBackoff::from_millis(10) (10 ms, 100 ms, 1 s: base to the power n) retrying a read’s 429s with Retry-After: 1',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 2 });
      const delay = tokioRetry({ base: 10, factor: 1, maxMs: 60_000 });
      await retried(
        sleeper(t),
        () => api(t, a, 'GET', '/providers'),
        (n, x) => (transient(x) ? delay(n) : undefined),
      );
    },
  },
  // "Retry guidance: retry only after rate_limited and internal.": Apollo's RetryLink on its defaults
  // (retryIf: !!error) retries every ServerError, a 400 from a capability check among them.
  {
    does: 'is a GraphQL server calling the service through an Apollo RetryLink on its defaults (retryIf: !!error, 5 attempts), which repeats a capability check refused with 400',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(742);
      const body = { connectorId: 'x', capability: 'orders.read' };
      await retried(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        (n, x) => (x.status !== 200 ? apolloRetryLinkMs(n, random) : undefined),
        4,
      );
    },
  },
  // "respect the wait time of the response": behind a corporate proxy that replaces upstream error
  // answers with its own 502 page (dropping Retry-After), the client retries 5xx on the guidance's
  // schedule, so every 429 of the service is retried before its Retry-After.
  {
    does: 'sits behind a corporate proxy that replaces upstream errors with its own 502 page (Retry-After dropped) and retries 5xx on the guidance schedule, so two 429s (Retry-After: 2) are retried after 0.5 s and 1 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 2 });
      // What the client gets: the proxy's 502, without the service's headers.
      const viaProxy = async (): Promise<Reply> => {
        const r = await api(t, a, 'GET', '/connections');
        return r.status >= 400 ? { status: 502, json: undefined, retryAfterMs: 0 } : r;
      };
      const wait = guidanceWait(seeded(743));
      await retried(sleeper(t), viaProxy, (n, x) => (transient(x) ? wait(n) : undefined));
    },
  },
];

export const MISBEHAVING_7: FaultyClient2[] = [...STACKS, ...RUN_FAULTS_7, ...STREAM_FAULTS_7];
