import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, TENANTS } from './unnamed30-kit.ts';
import {
  adaDelay,
  byTokenGroup,
  cutAndResume,
  rebolWait,
  rocJitter,
  siblingRefresh,
  tclAfter,
} from './unnamed40-kit.ts';

/**
 * Round 40, well-behaved clients of stacks no earlier round used (Tcl, Ada AWS.Client, Rebol, Roc, Vala
 * libsoup, GNU Smalltalk, Guile, Kitura) and multi-region token caches. Each must get no `fail`; the
 * interface sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_40: UnnamedClient2[] = [
  // "growing intervals and slight random spread": the guidance's schedule written with Tcl's `after`.
  {
    does: 'is a Tcl http::geturl loop doing after [expr {500 * (1 << $n) + int(rand() * 250)}], three reads through two 500s each',
    pass: ['retry.growing-waits', 'retry.attempt-limit', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: tclAfter(seeded(4001)), failures: 2, max: 3 }),
  },
  // "respect the wait time of the response": Retry-After is a floor under the loop's own backoff.
  {
    does: "is an Ada AWS.Client loop doing delay Duration'Max (Retry_After, 0.5 * 2 ** N + Random * 0.25) through two 429s (Retry-After 2)",
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      const wait = adaDelay(seeded(4002));
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (n, r) => wait(n, r.retryAfterMs),
          3,
        ),
      );
    },
  },
  // "growing intervals and slight random spread": Rebol's `random 250` is 1..250 ms on a doubling wait.
  {
    does: 'is a Rebol script doing wait (0.5 * (2 ** n)) + (random 250) / 1000 s, three reads through two 500s each',
    pass: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: rebolWait(seeded(4003)), failures: 2, max: 3, from: 1 }),
  },
  // "growing intervals": equal jitter (0.5..1.5 of a doubling wait) may draw a shorter wait after a longer.
  {
    does: 'is a Roc task retrying with Sleep.millis (1000 * 2^n * u), u in [0.5, 1.5), three reads through three 500s each',
    pass: ['retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: rocJitter(seeded(4004)), failures: 3, max: 3 }),
  },
  // "the same key with the same content returns the same response again": the Soup.Message is built once
  // (key header included) and re-queued after the 500.
  {
    does: 'is a Vala libsoup client re-queueing the same Soup.Message (its Idempotency-Key header set once) after a committed create answered 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
      const body = { ...CONNECTION, scopeLabel: 'Vala Vol-au-vent' };
      const wait = tclAfter(seeded(4005));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'soup-msg-4005'), wait, 3));
    },
  },
  // "(last number read)": the GNU Smalltalk reader handles each message before reading the next, so the
  // last id it processed is the last it read.
  {
    does: 'is a GNU Smalltalk stream reader processing each message before the next read, resuming a cut with Last-Event-ID of the last one',
    pass: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, auth(t), { n: 6, resumeAt: (ids) => ids.at(-1) ?? 0 }),
  },
  // "renewed, not extended": one token per region (two tenants in eu share one), each 10-minute token renewed
  // after 8 minutes (2 minutes left), every tenant read every 20 s.
  {
    does: 'is an integrator with one 10-minute token per region (two tenants share the eu one), each renewed after 8 minutes, reading every tenant every 20 s for 25 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) =>
      byTokenGroup(t, TENANTS, {
        group: (tenant) => (tenant === 'lakeside-cafes' ? 'us' : 'eu'),
        ttlS: 600,
        renewAfterS: 480,
        everyS: 20,
        minutes: 25,
      }),
  },
  // "renewed, not extended": one token of the integrator for all its tenants, renewed with 90 s left.
  {
    does: 'is a Guile (web client) integrator using one 10-minute token for its three tenants, renewed after 510 s, reading each every 15 s for 22 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) => byTokenGroup(t, TENANTS, { group: () => 'all', ttlS: 600, renewAfterS: 510, everyS: 15, minutes: 22 }),
  },
  // "use a new key for each new operation": a create refused 400 is corrected (its environment) and sent
  // as a new operation under a new key: the remedy, not a repeat.
  {
    does: 'is a Kitura client whose create is refused 400 (unknown environment), then sent at once with the environment corrected under a new key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Kitura Katsu', environment: 'staging-eu' };
      const refused = await createWith(t, a, body, 'kitura-1');
      if (refused.status !== 400) throw new Error(`answered ${refused.status}`);
      ok('create', await createWith(t, a, { ...body, environment: 'sandbox' }, 'kitura-2'));
    },
  },
  // "remedy: request a new access token": a read refused 401 (expired) is sent at once with a new token.
  {
    does: 'is a Tcl http::geturl client whose read is refused 401 after its token expired, renewing and reading again at once',
    pass: [],
    async run(t) {
      const expired = auth(t, undefined, 1);
      await sleeper(t)(2_000);
      const refused = await get(t, expired, '/connectors');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      ok('read', await get(t, auth(t), '/connectors'));
    },
  },
  // "Sample calls send a header Service-Version": every call carries it, the stream open included.
  {
    does: 'is a Rebol client sending Service-Version 2026-07-01 on a read, a create and a stream open',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/providers'));
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Rebol Rouladen' }, 'rebol-4012'));
      await cutAndResume(t, a, { n: 2, resumeAt: (ids) => ids.at(-1) ?? 0, asQuery: true });
    },
  },
  // "retry only after rate_limited and internal": a 404 read is not repeated; the client lists instead.
  {
    does: 'is a Roc client whose read of an unknown connection answers 404, and which lists the connections instead of asking again',
    pass: [],
    async run(t) {
      const a = auth(t);
      const missing = await api(t, a, 'GET', '/connections/con_missing_4013');
      if (missing.status !== 404) throw new Error(`answered ${missing.status}`);
      await sleeper(t)(1_000);
      ok('list', await get(t, a, '/connections'));
    },
  },
  // "Processes of one client running at once ... are told apart by their tokens": two pods, each with its
  // own token in use throughout, refresh the same cached list; each makes three attempts through the 500s.
  {
    does: 'is two Tcl pods of one client, each with its own token, both refreshing /providers through four 500s, their three attempts each interleaved 300-700 ms apart',
    pass: ['retry.attempt-limit'],
    run: (t) => siblingRefresh(t),
  },
];
