import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { beeQueueExponential, convexRetrier, karafkaPause, playwrightToPass, retoolRetry } from './unnamed21-kit.ts';

/** Round 21, misbehaving clients (retry schedules and keys): each must fail exactly the rules it breaks. */
export const MISBEHAVING_21: FaultyClient[] = [
  // "Clients retry with growing intervals": Python's `retry` decorator as often written, `@retry(tries=4,
  // delay=1)`: backoff defaults to 1, so every sleep is the same second.
  {
    does: 'is a Python job under @retry(tries=4, delay=1) (backoff left at 1) reading connections through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          () => 1_000,
          3,
        ),
      );
    },
  },
  // "growing intervals and slight random spread": Hurl files run in CI with `--retry 3 --retry-interval 1000`:
  // a fixed second, no draw, three files each through three 500s.
  {
    does: 'is a CI job running three Hurl files with --retry 3 --retry-interval 1000, each read through three 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: () => 1_000, failures: 3, max: 3, from: 1 });
    },
  },
  // "slight random spread": bee-queue's `backoff('exponential', 1000)` draws nothing, so every job's retries
  // fall at the same moments; three reads each through two 500s.
  {
    does: 'is a bee-queue worker (retries 3, backoff exponential 1000, no jitter), three jobs each reading through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: beeQueueExponential, failures: 2, max: 3 });
    },
  },
  // "A sample client makes up to 4 attempts": Convex's action retrier with maxFailures 4 retries four times
  // after the first failure: five attempts of one read.
  {
    does: 'is a Convex action under @convex-dev/action-retrier (initialBackoffMs 250, base 2, maxFailures 4) reading through four 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), convexRetrier(seeded(2154)), 4));
    },
  },
  // "up to 4 attempts" and "growing intervals": a Playwright test wrapping its read in
  // `expect(...).toPass({ intervals: [1_000, 2_000, 10_000], timeout: 60_000 })`: after 2 s every try is 10 s
  // apart, seven attempts through six 500s.
  {
    does: 'is a Playwright test reading through six 500s inside expect(...).toPass({ intervals: [1_000, 2_000, 10_000] }), seven attempts',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 6 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors?category=pos'), playwrightToPass, 8));
    },
  },
  // "retry only after rate_limited and internal": Cypress `cy.request({ retryOnStatusCodeFailure: true })`
  // retries any status failure up to four times, here a 403 (the tenant is not released for the access).
  {
    does: 'is a Cypress cy.request({ retryOnStatusCodeFailure: true }) repeating a read refused 403 (tenant not released) four times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connections'),
        (n) => 100 * 2 ** n,
        4,
        (x) => x.status >= 400,
      );
      if (r.status !== 403) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": a Retool workflow block retrying on failure (exponential from
  // 1 s) treats a 429 like any failure and never reads Retry-After (5 s).
  {
    does: 'is a Retool workflow REST block (retry 3, exponential from 1 s) retrying two 429s with Retry-After 5 after 1 s and 2 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), retoolRetry, 3));
    },
  },
  // "A sample client makes up to 4 attempts": a Karafka consumer without a dead letter queue pauses and
  // retries the message until it succeeds (exponential pause from 1 s): a create tried six times under its key.
  {
    does: 'is a Karafka consumer without a dead_letter_queue (exponential pause from 1 s, retried until it succeeds) trying a create six times under its key through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const body = { ...CONNECTION, scopeLabel: 'Karafka Kebab' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'venues-0-99120'), karafkaPause, 8));
    },
  },
  // "the same key with the same content": a PocketBase JS hook retries `$http.send` after a 500, but its retry
  // helper rebuilds the headers from a defaults object without the Idempotency-Key.
  {
    does: 'is a PocketBase JS hook whose retry helper rebuilds $http.send headers without the Idempotency-Key, re-sending a create after a 500 after commit',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'PocketBase Poke' };
      const first = await createWith(t, a, body, 'pb-record-u7x2k9q4m1');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      const again = await api(t, a, 'POST', '/connections', { body });
      if (again.status !== 428) throw new Error(`answered ${again.status}`);
    },
  },
];
