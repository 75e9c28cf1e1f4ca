import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  apimRetry,
  armeriaJittered,
  clientGoDefault,
  conductorExponential,
  finagleJittered,
  kestraExponential,
  nodeRedDelay,
  redo,
  traefikRetry,
} from './unnamed20-kit.ts';

/**
 * Round 20, well-behaved clients (workflow engines, gateways, JVM and Go stacks). Each must get no
 * `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_20: UnnamedClient2[] = [
  // "Clients retry with growing intervals": a Kestra flow's io.kestra.plugin.core.http.Request task with an
  // exponential retry (1 s, 2 s, 4 s; maxAttempt 4), one read through three 500s (one sequence: its missing
  // spread cannot be seen).
  {
    does: 'is a Kestra flow task (retry exponential, interval PT1S, delayFactor 2, maxAttempt 4) reading the connections through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), kestraExponential, 3));
    },
  },
  // "retry only after rate_limited and internal": a Netflix Conductor HTTP task (EXPONENTIAL_BACKOFF,
  // retryDelaySeconds 2, retryCount 3) posting a capability check through two 500s.
  {
    does: 'is a Netflix Conductor HTTP task (EXPONENTIAL_BACKOFF, retryDelaySeconds 2, retryCount 3) posting a capability check through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read', environment: 'pilot' };
      ok('check', await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), conductorExponential, 3));
    },
  },
  // "growing intervals and slight random spread": an Azure API Management outbound policy `<retry count="3"
  // interval="1" delta="1" max-interval="10">` in front of the partner's integration, three reads each through
  // two 500s.
  {
    does: 'is an Azure API Management policy <retry count=3 interval=1 delta=1 max-interval=10> (exponential with a ±20 % delta) on three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: apimRetry(seeded(2001)), failures: 2, max: 3 });
    },
  },
  // "doubles the wait ... plus a random amount": client-go's retry.OnError(retry.DefaultBackoff, ...) (10 ms
  // times 5^n, jitter 0.1, four steps) in a Kubernetes operator, one read through three 500s.
  {
    does: 'is a Kubernetes operator wrapping its read in client-go retry.OnError(retry.DefaultBackoff) (10 ms x5, jitter 0.1, 4 steps) through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      ok(
        'read',
        await loop(sleeper(t), () => get(t, a, '/connectors?providerId=tillcraft'), clientGoDefault(seeded(2004)), 3),
      );
    },
  },
  // "the same key with the same content returns the same response again": Traefik's Retry middleware in
  // front of a worker re-sends the request, headers and body unchanged, when the upstream connection drops.
  {
    does: 'sits behind a Traefik Retry middleware (attempts 4, initialInterval 100ms) that re-sends a create, key header and all, after its connection dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Traefik Taqueria' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'traefik-7c02e4f1-create'), traefikRetry(seeded(2005)), 3),
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Node-RED flow sets msg.headers'
  // Idempotency-Key once (a change node on entry); its catch node loops the same msg through a random delay
  // node back to the http request node.
  {
    does: 'is a Node-RED flow (key set once on msg.headers, catch node looping msg through a random 1-2 s delay x2^n) retrying a create that got a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Node Red Noodle Bar' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'nodered.msgid.5f1c0a2e'), nodeRedDelay(seeded(2006)), 3),
      );
    },
  },
  // "A sample client makes up to 4 attempts": Mozilla's redo with attempts=4, sleeptime=2, sleepscale=2,
  // jitter=1 (whole seconds), one read through three 500s.
  {
    does: 'is a Python job on Mozilla redo.retry(attempts=4, sleeptime=2, sleepscale=2, jitter=1) reading capabilities through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      const wait = redo({ sleeptimeS: 2, sleepscale: 2, jitterS: 1 }, seeded(2007));
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), wait, 3));
    },
  },
  // "a failed create sent again by a sibling is its retry" and "the same key": a Nomad batch job whose task
  // is restarted (restart delay 15 s plus Nomad's 25 % jitter); the new process fetches its own token and
  // sends the create again under the key derived from NOMAD_JOB_ID and the venue.
  {
    does: 'is a Nomad batch job restarted 15-19 s after its create got a 500 after commit, the new process (new token) re-sending it under the key from NOMAD_JOB_ID',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Nomad Noodle Cart' };
      const key = 'nomad:venue-sync.periodic-1764236400:nomad-noodle-cart';
      const first = await createWith(t, auth(t), body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(15_000 + Math.round(seeded(2008)() * 3_750));
      replayed('create', await createWith(t, auth(t), body, key));
    },
  },
  // "Clients retry with growing intervals and slight random spread": Finagle's
  // Backoff.exponentialJittered(500 ms, 10 s) in a Scala service, three reads each through two 500s.
  {
    does: 'is a Finagle client with Backoff.exponentialJittered(500.ms, 10.s) and a RetryBudget, three reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: finagleJittered(seeded(2009)),
        failures: 2,
        max: 3,
        from: 1,
      });
    },
  },
  // "the same key with the same content": Armeria's RetryingClient re-sends the same HttpRequest (headers
  // included) after a gateway 503 after commit, Backoff.exponential(500, 10000).withJitter(0.2).
  {
    does: 'is an Armeria RetryingClient (RetryRule.onServerErrorStatus, Backoff.exponential(500, 10000).withJitter(0.2)) re-sending a create after a 503 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Armeria Arancini' };
      const backoff = armeriaJittered(seeded(2010));
      const wait = (n: number, r: { retryAfterMs: number }) => Math.max(backoff(n), r.retryAfterMs);
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'armeria-req-20-a1b2c3'), wait, 3));
    },
  },
];
