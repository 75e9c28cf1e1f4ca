import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { logicAppsExponential, nimSample, teslaRetry, workflowsBackoff } from './unnamed16-kit.ts';

/**
 * Round 16, well-behaved clients (Nim, Tesla, Logic Apps, Google Workflows, streams). Each must get no
 * `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_16: UnnamedClient2[] = [
  // "doubles the wait (500 ms times 2 to the power of the attempt number) plus a random amount up to 250 ms":
  // a Nim service on std/asynchttpclient, its retry proc written from the sample, three reads through two 500s.
  {
    does: 'is a Nim service on std/asynchttpclient sleeping 500 * (1 shl n) + rand(250) ms, three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: nimSample(seeded(1601)), failures: 2, max: 3 });
    },
  },
  // "the same key with the same content returns the same response again": Nim, the key made with
  // std/oids genOid() before the loop, a create dropped after commit sent again with it.
  {
    does: 'is a Nim service keying a create with $genOid() before its retry loop, sending it again after the connection dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1602);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = `nim-oid-${uuid(random).replaceAll('-', '').slice(0, 24)}`;
      const body = { ...CONNECTION, scopeLabel: 'Nimble Noodle Bar' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), nimSample(random), 3));
    },
  },
  // "Clients retry with growing intervals and slight random spread": Elixir Tesla.Middleware.Retry
  // (delay 500, max_retries 3, max_delay 4000, jitter_factor 0.2, should_retry on 429 and 5xx).
  {
    does: 'is an Elixir service on Tesla with Middleware.Retry (delay 500, max_retries 3, jitter_factor 0.2), three reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: teslaRetry(seeded(1603)), failures: 3, max: 3, from: 1 });
    },
  },
  // "respect the wait time of the response": Tesla's Retry middleware reads no Retry-After, so this
  // service's should_retry/delay pair is replaced by a custom middleware that sleeps Retry-After on 429.
  {
    does: 'is an Elixir Tesla client with a custom middleware sleeping a 429’s Retry-After (3 s) before Tesla.Middleware.Retry takes over',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const jitter = teslaRetry(seeded(1604));
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) => (r.retryAfterMs > 0 ? r.retryAfterMs : jitter(n));
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wait, 3));
    },
  },
  // "Clients retry with growing intervals and slight random spread": an Azure Logic Apps HTTP action with
  // retryPolicy { type: exponential, count: 3, interval: PT2S, minimumInterval: PT1S }.
  {
    does: 'is an Azure Logic Apps HTTP action with an exponential retry policy (count 3, interval PT2S, minimumInterval PT1S), three reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const schedule = logicAppsExponential(seeded(1605), { intervalMs: 2_000, minMs: 1_000, maxMs: 60_000 });
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, from: 2 });
    },
  },
  // "the same key with the same content" and "respect the wait time": a Logic Apps HTTP action whose
  // Idempotency-Key is @{workflow().run.name} (the same on each of the action's retries), through a 429.
  {
    does: 'is an Azure Logic Apps HTTP action keying its create by @{workflow().run.name}, retried through a 429 (Retry-After: 5) under that key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1606);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      const key = `08584${Math.floor(random() * 1e12)}CU${Math.floor(random() * 100)}`;
      const body = { ...CONNECTION, scopeLabel: 'Logic Lagoon Lounge' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), logicAppsExponential(random), 3));
    },
  },
  // "A sample client makes up to 4 attempts": a Google Workflows step `http.get` with a custom
  // `retry: { predicate: http.default_retry_predicate, max_retries: 3, backoff: { initial_delay: 1,
  // max_delay: 30, multiplier: 2 } }`, one read through three gateway 503s.
  {
    does: 'is a Google Workflows http.get step with a custom retry (max_retries 3, initial_delay 1, multiplier 2), one read through three gateway 503s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listProviders', retryAfterSeconds: 0, count: 3 });
      const wait = workflowsBackoff({ initialMs: 1_000, maxMs: 30_000, multiplier: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
  // "the same key with the same content": a Google Workflows step `http.post` under
  // `http.default_retry_non_idempotent` (429 and 503 only), its key the execution id from sys.get_env.
  {
    does: 'is a Google Workflows http.post under default_retry_non_idempotent keyed by GOOGLE_CLOUD_WORKFLOW_EXECUTION_ID, through a gateway 503',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const key = `wf-exec-${uuid(seeded(1608))}`;
      const body = { ...CONNECTION, scopeLabel: 'Workflow Wharf Bistro' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), workflowsBackoff(), 3));
    },
  },
  // "resumes without gaps by sending ... the query parameter cursor (last number read)": a Nim SSE
  // consumer on std/asynchttpclient parsing `id:` lines, reconnecting with ?cursor= after a cut.
  {
    does: 'is a Nim SSE consumer parsing id: lines itself, reconnecting with ?cursor=<last id> 1 s after the server cut the stream',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a Tesla client whose OAuth2 middleware renews
  // the client-credentials token once less than 60 s of its 300 s are left, reading once a minute.
  {
    does: 'is an Elixir Tesla client renewing its 300 s client-credentials token once under 60 s are left, reading once a minute for 10 minutes',
    pass: [],
    async run(t) {
      let a = auth(t, undefined, 300);
      let issuedAt = 0;
      for (let minute = 0; minute <= 10; minute++) {
        if (minute * 60 - issuedAt >= 240) {
          a = auth(t, undefined, 300);
          issuedAt = minute * 60;
        }
        ok(`minute ${minute}`, await api(t, a, 'GET', minute % 2 ? '/connections' : '/providers'));
        await sleeper(t)(60_000);
      }
    },
  },
];
