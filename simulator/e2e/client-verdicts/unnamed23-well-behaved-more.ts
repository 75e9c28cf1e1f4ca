import type { Target } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { arqDefer, jobRunrBackoff, retryableGem, saloonExponential } from './unnamed23-kit.ts';

/** Reads the five list routes in turn every `everyMs`, renewing the token `beforeS` seconds before it expires. */
export async function renewingReader(t: Target, o: { ttlS: number; beforeS: number; everyMs: number; calls: number }) {
  const paths = ['/providers', '/connectors', '/capabilities', '/connections', '/providers?category=pos'];
  const now = () => t.sandbox.state.clock.now();
  let a = auth(t, undefined, o.ttlS);
  let expiresAt = now() + o.ttlS * 1_000;
  for (let i = 0; i < o.calls; i++) {
    if (expiresAt - now() <= o.beforeS * 1_000) {
      a = auth(t, undefined, o.ttlS);
      expiresAt = now() + o.ttlS * 1_000;
    }
    ok('read', await get(t, a, paths[i % paths.length] ?? '/providers'));
    await sleeper(t)(o.everyMs);
  }
}

/** A stream cut after two messages, resumed with the last number read (as header or query). */
async function resumedAfterCut(t: Target, asQuery: boolean) {
  const a = auth(t);
  fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
  const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 3) });
  await sleeper(t)(asQuery ? 3_000 : 1_000);
  const last = ids.at(-1);
  if (last === undefined) throw new Error('nothing read before the cut');
  const rest = await readStream(t, a, { cursor: last, asQuery, idleMs: 600 });
  if (rest[0] !== last + 1) throw new Error(`resumed at ${rest[0]} after ${last}`);
}

/** Round 23, more well-behaved clients (job runners, token managers, stream consumers). */
export const WELL_BEHAVED_MORE_23: UnnamedClient2[] = [
  // "the same key with the same content": a Python arq job (max_tries 3) keying its create with its job id,
  // which arq keeps across `raise Retry(defer=ctx['job_try'] * 5)`, through two 500s.
  {
    does: 'is a Python arq job (max_tries 3, Retry(defer=job_try * 5)) keying its create by job id through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Arq Arepas' };
      const key = 'arq-job-5b8f2a9e3c1d4e7f';
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), arqDefer(seeded(2321)), 3));
    },
  },
  // "Clients retry with growing intervals": the Ruby `retryable` gem with `sleep: ->(n) { 4**n }` and
  // `on: [ServerError]`: 1 s, then 4 s, through two 500s.
  {
    does: 'is a Ruby script under Retryable.retryable(tries: 4, sleep: ->(n) { 4**n }, on: ServerError) reading connections through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), retryableGem, 3));
    },
  },
  // "retry only after rate_limited and internal": a PHP Saloon connector ($tries 3, $retryInterval 500,
  // $useExponentialBackoff) whose handleRetry() answers true only for 429 and 5xx: 500 ms, 1 s.
  {
    does: 'is a PHP Saloon connector ($tries 3, $retryInterval 500, exponential) whose handleRetry allows 429/5xx only, reading connectors through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors?category=pos'), saloonExponential, 2));
    },
  },
  // "retry only after rate_limited and internal": the same Saloon connector stops at a 403 (handleRetry
  // returns false for any 4xx but 429).
  {
    does: 'is a PHP Saloon connector whose handleRetry refuses 4xx but 429, reading a tenant it is not released for once (403) and stopping',
    pass: [],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const r = await loop(sleeper(t), () => get(t, a, '/connections'), saloonExponential, 2);
      if (r.status !== 403) throw new Error(`answered ${r.status}`);
    },
  },
  // "the same key with the same content": a JobRunr job (`@Job(retries = 2)`, default back-off 3^n s) keying
  // its create with its JobRunr job id, which its retries keep: 3 s, then 9 s, through two 500s.
  {
    does: 'is a JobRunr job (@Job(retries = 2), back-off 3 s then 9 s) keying its create with its job id through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'JobRunr Jollof' };
      const key = 'jobrunr-3f9c2d7e-61b4-4a0e-8f35-c2d1e9a7b604';
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), jobRunrBackoff, 2));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": Go's clientcredentials TokenSource (a
  // ReuseTokenSource, expiryDelta 10 s) on 120 s tokens, a read every 20 s for 8 minutes.
  {
    does: 'is a Go service on x/oauth2 clientcredentials.TokenSource (renewed 10 s before expiry) with 120 s tokens, a read every 20 s for 8 minutes',
    pass: [],
    async run(t) {
      await renewingReader(t, { ttlS: 120, beforeS: 10, everyMs: 20_000, calls: 24 });
    },
  },
  // "renewed, not extended": a .NET worker on Duende.AccessTokenManagement (RefreshBeforeExpiration 60 s)
  // on 300 s tokens, a read every 45 s for 15 minutes.
  {
    does: 'is a .NET worker on Duende.AccessTokenManagement (RefreshBeforeExpiration 60 s) with 300 s tokens, a read every 45 s for 15 minutes',
    pass: [],
    async run(t) {
      await renewingReader(t, { ttlS: 300, beforeS: 60, everyMs: 45_000, calls: 20 });
    },
  },
  // "the client resumes without gaps by sending Last-Event-ID": an Elixir consumer streaming with Mint
  // (Mint.HTTP.stream/2), keeping the last id in its GenServer state, reconnecting 1 s after a cut.
  {
    does: 'is an Elixir consumer on Mint.HTTP streaming, reconnecting 1 s after a cut with the Last-Event-ID kept in its GenServer state',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      await resumedAfterCut(t, false);
    },
  },
  // "or the query parameter cursor (last number read)": a PHP consumer on amphp/http-client streaming the
  // body, keeping the last id and reopening with ?cursor= after 3 s.
  {
    does: 'is a PHP consumer on amphp/http-client streaming the status stream, reopening with ?cursor= of the last id read 3 s after a cut',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      await resumedAfterCut(t, true);
    },
  },
  // "use a new key for each new operation" and "the same key with the same content": a Go Machinery task
  // chain (a connection, then a webhook), each step keyed by its own task UUID; the webhook's 500 is
  // retried under the webhook's key (Fibonacci-like 1 s, then 2 s).
  {
    does: 'is a Go Machinery chain creating a connection, then a webhook whose 500 it retries under the webhook task’s own key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      ok(
        'create',
        await createWith(t, a, { ...CONNECTION, scopeLabel: 'Machinery Mezze' }, 'machinery-task-7741-conn'),
      );
      fault(t, { kind: 'internal', route: 'createWebhook', count: 1 });
      const hook = { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] };
      const send = () => api(t, a, 'POST', '/webhooks', { body: hook, key: 'machinery-task-7742-hook' });
      const r = await loop(sleeper(t), send, (n) => 1_000 * (n + 1) + 80, 3);
      if (r.status !== 200 && r.status !== 201) throw new Error(`webhook answered ${r.status}`);
    },
  },
];
