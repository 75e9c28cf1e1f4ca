import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS } from './unnamed30-kit.ts';
import { ownToken } from './unnamed33-kit.ts';
import {
  cobolDoubling,
  cutAndCheckpoint,
  deployment,
  fortranCurl,
  lumenRetry,
  orleansGrains,
  racketSleep,
  zigJitter,
} from './unnamed39-kit.ts';

/**
 * Round 39, well-behaved clients of stacks no earlier round used (Racket, Fortran over libcurl, GnuCOBOL, Zig,
 * a conduit reader, Blazor Server, an htmx page behind its backend, Orleans grains per tenant, a Fiber client
 * pinned to the older published version, tRPC with a Zod-defaulted key parsed once, Lumen told 3 attempts,
 * Beego remedying a 428). Each must get no `fail`; the interface sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_39: UnnamedClient2[] = [
  // "growing intervals and slight random spread": the doubling interval stretched by Racket's (random).
  {
    does: 'is a Racket http-sendrecv loop sleeping (* 0.5 (expt 2 n) (+ 1 (random))) s, three reads through two 500s each',
    pass: ['retry.growing-waits', 'retry.attempt-limit', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: racketSleep(seeded(3901)), failures: 2, max: 3 }),
  },
  // "respect the wait time of the response": CURLINFO_RETRY_AFTER is a floor under the loop's own backoff.
  {
    does: 'is a Fortran program over libcurl sleeping max(CURLINFO_RETRY_AFTER, 0.5 * 2**n + 0.25 * r) s through two 429s (Retry-After 2)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      const wait = fortranCurl(seeded(3902));
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
  // "the same key with the same content": the batch step's key is its step name and record number.
  {
    does: 'is a GnuCOBOL batch step keying a create by STEP010 and the record number, C$SLEEP 2 ** N s plus FUNCTION RANDOM through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Cobol Cafe Rec 42' };
      ok(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'STEP010-REC000042'), cobolDoubling(seeded(3903)), 3),
      );
    },
  },
  // "slight random spread": Zig's DefaultPrng drawn inside the loop, for every sleep.
  {
    does: 'is a Zig std.http.Client loop sleeping (500 << n) ms plus prng.random().uintLessThan(250) drawn per sleep, three reads through two 500s',
    pass: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: zigJitter(seeded(3904)), failures: 2, max: 3 }),
  },
  // "(last number read)": the conduit reader checkpoints every 5 messages for restarts, but a reconnect of
  // the running process resumes from the last id it holds in memory.
  {
    does: 'is a Scotty service reading the stream through conduit, checkpointing every 5 messages for restarts but resuming a cut with ?cursor= of the last id held in memory',
    pass: ['stream.resume-from-last-read'],
    run: (t) => cutAndCheckpoint(t, auth(t), { n: 7, every: 5, resumeAt: (ids) => ids.at(-1) ?? 0, asQuery: true }),
  },
  // "renewed, not extended": a Blazor Server app registers its token cache as a singleton, so every
  // circuit (page load) shares one 10-minute token, renewed with 2 minutes left.
  {
    does: 'is a Blazor Server app with a singleton token cache (10-minute tokens renewed with 2 minutes left), a page load reading /connectors every 15 s for 20 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const token = ownToken(t, 600, 120);
      for (let i = 0; i < 80; i++) {
        ok('read', await get(t, token(), '/connectors'));
        await sleeper(t)(15_000);
      }
    },
  },
  // "never sent from a browser": the htmx page asks the partner's backend (hx-get), which calls the service
  // with its own token and passes neither the browser's Origin nor its cookies on.
  {
    does: 'is an htmx page whose hx-get asks the partner backend, which calls the service with its own token and drops the browser’s Origin',
    pass: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors']) {
        ok(path, await get(t, a, path));
        await sleeper(t)(3_000);
      }
    },
  },
  // "renewed, not extended": one Orleans grain per tenant, each with its own 10-minute token of the integrator
  // (activated 3 minutes apart), each renewed with 2 minutes left: tokens of one client replaced near expiry.
  {
    does: 'is an Orleans silo with one grain per tenant, each holding its own 10-minute token (grains activated 3 minutes apart, renewed with 2 minutes left), reading every 20 s for 30 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) => orleansGrains(t, { ttlS: 600, leftS: 120, staggerS: 180, minutes: 30 }),
  },
  // "a header Service-Version with the version identifier": the older published version is still one.
  {
    does: 'is a Go Fiber client pinned to the older published Service-Version 2026-06-12 it was built against',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await api(t, a, 'GET', '/providers', { version: '2026-06-12' }));
      await sleeper(t)(1_000);
      ok('read', await api(t, a, 'GET', '/connectors', { version: '2026-06-12' }));
    },
  },
  // "the same key ... returns the same response again": the tRPC input is parsed once (Zod's
  // .default(randomUUID) fills the key), and the retry link re-sends the parsed input.
  {
    does: 'is a tRPC procedure whose Zod input defaults the key with randomUUID once, retried by its link after a committed create answered 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
      const body = { ...CONNECTION, scopeLabel: 'tRPC Tapas' };
      const key = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
      const random = seeded(3910);
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        (n) => 500 * 2 ** n + Math.floor(random() * 250),
        3,
      );
      replayed('create', r);
    },
  },
  // "up to 4 attempts": Lumen told Http::retry(3, ...), linear waits with a draw.
  {
    does: 'is a Lumen service with Http::retry(3, fn ($attempt) => $attempt * 300 + random_int(0, 150)), one read through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), lumenRetry(seeded(3911)), 2));
    },
  },
  // "use a new key for each new operation": a create sent without a key is refused 428; the Beego client
  // adds a key and sends it at once (the remedy, not a repeat).
  {
    does: 'is a Beego httplib client whose create is refused 428 (no key), then sent at once with a fresh key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Beego Bao' };
      const refused = await api(t, a, 'POST', '/connections', { body });
      if (refused.status !== 428) throw new Error(`answered ${refused.status}`);
      ok('create', await createWith(t, a, body, 'beego-7c1e'));
    },
  },
  // "renewed, not extended": grains activated 5 s apart renew their 5-minute tokens with 1 minute left, so
  // three tokens of the client are replaced within 10 s of each other, each near its expiry.
  {
    does: 'is an Orleans silo whose three tenant grains, activated 5 s apart, each renew a 5-minute token with 1 minute left, reading every 20 s for 20 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) => orleansGrains(t, { ttlS: 300, leftS: 60, staggerS: 5, minutes: 20 }),
  },
  // Processes of one client each take a token of their own: a HorizontalPodAutoscaler adds three pods 20 s
  // apart beside the first, each with its own 1-hour token, all reading every 10 s.
  {
    does: 'is a Deployment scaled out by its HorizontalPodAutoscaler from one pod to four, 20 s apart, each new pod taking its own 1-hour token, all reading every 10 s for 4 minutes',
    pass: ['auth.token-reused'],
    run: (t) =>
      deployment(
        t,
        [0, 60, 80, 100].map((startS) => ({ startS, stopS: 240 })),
        4,
      ),
  },
];
