import { randomUUID } from 'node:crypto';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  agendaReschedule,
  httpoisonLoop,
  ownToken,
  proxyWait,
  sneakersMaxretry,
  volleyDefault,
} from './unnamed33-kit.ts';
import { MISBEHAVING_33_MORE } from './unnamed33-misbehaving-more.ts';

/**
 * Round 33, misbehaving clients whose violation looks correct: Volley asking getHeaders() per attempt,
 * a job stamping its body per run under a kept key, Sneakers' fixed dead-letter TTL, Unirest's retry
 * count taken as attempts, a guard `code >= 400` meant for `>= 500`, a 409's remedy mistaken for a new key,
 * a wait read from a proxy's header with no Retry-After floor, five attempts across a token renewal, a
 * poller catching up every second after a 500, a jitter truncated by a whole-second sleep. Each must
 * fail exactly its rule(s).
 */
export const MISBEHAVING_33: (FaultyClient & { options?: SandboxOptions })[] = [
  // "the same key with the same content": Volley calls getHeaders() for each attempt, and this one
  // makes the key there (UUID.randomUUID()), so the retry after the timeout carries another key.
  {
    does: 'is an Android Volley request whose getHeaders() makes the Idempotency-Key (UUID.randomUUID()), called again by DefaultRetryPolicy’s immediate retry after a 2.5 s timeout',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 2_500 });
      const body = { ...CONNECTION, scopeLabel: 'Volley Vada' };
      const send = () =>
        api(t, a, 'POST', '/connections', { body, key: `volley-${randomUUID()}`, timeoutMs: volleyDefault.timeoutMs });
      const first = await send();
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(20);
      await send();
    },
  },
  // "a body stamped anew on a retry is other content": the key is kept in job data, but each run puts
  // requestedAt: new Date() into the body it sends.
  {
    does: 'is an Agenda job keeping its key in job.attrs.data but stamping requestedAt: new Date() into the body on each run, rescheduled by its fail handler through a 500',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const key = 'agenda-job-stamped-1';
      const wait = agendaReschedule(seeded(3352));
      const body = () => ({ ...CONNECTION, scopeLabel: `Stamped ${t.sandbox.state.clock.now()}` });
      await loop(sleeper(t), () => createWith(t, a, body(), key), wait, 3);
    },
  },
  // "growing intervals" and "up to 4 attempts": Sneakers' Maxretry dead-letters the message with a fixed
  // TTL (retry_timeout 60 s) and gives up after retry_max_times 5: six deliveries 60 s apart.
  {
    does: 'is a Sneakers worker on the Maxretry handler defaults (retry_timeout 60 s, retry_max_times 5), reading through five 500s: six attempts 60 s apart',
    fails: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 5 });
      const { retryTimeoutMs, retryMaxTimes } = sneakersMaxretry;
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => retryTimeoutMs,
          retryMaxTimes,
        ),
      );
    },
  },
  // "up to 4 attempts": Unirest's retryAfter(true, 5) honours every Retry-After, but 5 is retries.
  {
    does: 'is a Unirest-Java client with retryAfter(true, 5), honouring each Retry-After (1 s) through five 429s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 5 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          (_n, r) => r.retryAfterMs,
          5,
        ),
      );
    },
  },
  // "retry only after rate_limited and internal": the guard `{:ok, %{status_code: code}} when code >= 400`
  // (meant `>= 500`) retries a lookup of a deleted connection, with a good growing, drawn schedule.
  {
    does: 'is an HTTPoison client whose retry guard is `when code >= 400` (meant >= 500), retrying a lookup answered 404 twice on its 2^n s + :rand.uniform(500) schedule',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const wait = httpoisonLoop(seeded(3355));
      await loop(
        sleeper(t),
        () => get(t, a, '/connections/con_gone_4711'),
        wait,
        2,
        (r) => r.status >= 400,
      );
    },
  },
  // "retry only after rate_limited and internal": 409 capability_denied read as idempotency_conflict's
  // remedy ("use a new key"): the same body sent again under a new key.
  {
    does: 'takes every 409 for idempotency_conflict and sends the create again under a new key: a capability_denied create repeated unchanged',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Conflicted Kofta', capabilities: ['loyalty.points.teleport'] };
      const refused = await createWith(t, a, body, 'cap-409-first');
      if (refused.status !== 409) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      await createWith(t, a, body, 'cap-409-second');
    },
  },
  // "respect the wait time of the response": the wait comes from a proxy's RateLimit-Reset when there is
  // one, else from the client's own curve; the service's Retry-After is never read.
  {
    does: 'reads its wait from a proxy’s RateLimit-Reset header (absent here), else its own 0.5-0.75 s curve, never the 429’s Retry-After (3 s)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
      const draw = seeded(3357);
      const wait = (n: number, r: Parameters<typeof proxyWait>[0]) =>
        proxyWait(r, undefined, 500 * 2 ** n + Math.floor(draw() * 250), false);
      ok('read', await retrying(sleeper(t), () => get(t, a, '/connections'), wait, { ignoreRetryAfter: true }));
    },
  },
  // "up to 4 attempts": a read through four 500s, five attempts on a growing, drawn schedule; the auth
  // interceptor renews the token (60 s before expiry) between the second and third attempt: one process.
  {
    does: 'reads through four 500s on 2^n s + :rand.uniform(500) (five attempts), its auth interceptor renewing the 5 min token 60 s before expiry between the second and third attempt',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const token = ownToken(t, 300, 60);
      ok('warm', await get(t, token(), '/connectors'));
      await sleeper(t)(238_500);
      fault(t, { kind: 'internal', route: 'listConnections', count: 4 });
      const wait = httpoisonLoop(seeded(3359));
      ok('read', await loop(sleeper(t), () => get(t, token(), '/connections'), wait, 4));
    },
  },
  // "growing intervals": a poller every 5 s that, after a 500, "catches up" by polling every 1 s until it
  // gets an answer, then goes back to 5 s: its retries of the failed read are 1 s apart, every time.
  {
    does: 'polls every 5 s and after a 500 catches up by polling every 1 s until answered: three 500s in a row, retried 1 s, 1 s, 1 s apart',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 4; i++) {
        ok('poll', await get(t, a, '/connections'));
        await sleeper(t)(5_000);
      }
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok(
        'catch-up',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          () => 1_000,
          3,
        ),
      );
      for (let i = 0; i < 3; i++) {
        await sleeper(t)(5_000);
        ok('poll', await get(t, a, '/connections'));
      }
    },
  },
  // "slight random spread": the jitter is drawn (x 1-1.1) but the sleep takes whole seconds
  // (`time.sleep(int(2 ** n * (1 + random.random() / 10)))`), so every sequence waits 1, 2, 4 s exactly.
  {
    does: 'draws a 0-10 % jitter on 2^n s but sleeps int() of it (whole seconds), so three reads through three 500s each wait exactly 1, 2 and 4 s',
    fails: ['retry.spread'],
    run: (t) => {
      const draw = seeded(3360);
      const wait = (n: number) => 1_000 * Math.trunc(2 ** n * (1 + draw() / 10));
      return readsOn(t, auth(t), sleeper(t), { schedule: wait, failures: 3, max: 3 });
    },
  },
  ...MISBEHAVING_33_MORE,
];
