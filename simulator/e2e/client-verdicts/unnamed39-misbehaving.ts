import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS } from './unnamed30-kit.ts';
import {
  autoHotkeySleep,
  cobolFixed,
  cutAndCheckpoint,
  LUMEN_TIMES,
  lumenRetry,
  orleansGrains,
  zigOnceJitter,
} from './unnamed39-kit.ts';

/**
 * Round 39, misbehaving clients whose violation looks correct: a Zig jitter drawn once per process, an
 * AutoHotkey Sleep fed Retry-After seconds as ms, a COBOL step's fixed C$SLEEP, a tRPC retry re-parsing its
 * Zod input (a new default key), Lumen's retry(5), a conduit reader resuming from its checkpoint, Blazor
 * circuit-scoped tokens, Orleans grains taking a token per activation, an htmx page sending the token, a Fiber
 * client trying a preview Service-Version first, a Beego filter retrying a 400, a Salvo client keying by venue.
 * Each must fail exactly its rule(s).
 */
export const MISBEHAVING_39: (FaultyClient & { options?: SandboxOptions })[] = [
  // "slight random spread": the jitter is drawn once at start-up, so every sequence adds the same amount.
  {
    does: 'is a Zig std.http.Client loop adding a jitter drawn once at start-up from DefaultPrng to (500 << n) ms, three reads through two 500s',
    fails: ['retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: zigOnceJitter(seeded(3951)), failures: 2, max: 3 }),
  },
  // "respect the wait time of the response": AutoHotkey's Sleep counts ms, the header seconds.
  {
    does: 'is an AutoHotkey WinHttpRequest script doing Sleep, % GetResponseHeader("Retry-After") after a 429 (Retry-After 2): 2 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (_n, r) => autoHotkeySleep(r.retryAfterMs),
          1,
        ),
      );
    },
  },
  // "growing intervals": WS-DELAY VALUE 2 never changes.
  {
    does: 'is a GnuCOBOL batch step keyed by step and record, C$SLEEP with a fixed WS-DELAY VALUE 2 through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Cobol Cafe Rec 77' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'STEP020-REC000077'), cobolFixed, 3));
    },
  },
  // "the same key with the same content": the retry link re-runs the procedure from the raw input, and
  // Zod's .default(randomUUID) fills a new key on each parse.
  {
    does: 'is a tRPC procedure whose retry link re-parses the raw input, so Zod’s .default(randomUUID) fills a new key on each retry after a 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'tRPC Tortilla' };
      const keys = ['6f1c0b8e-11aa', '0d2e9f7a-22bb', '9a8b7c6d-33cc'];
      const random = seeded(3954);
      const send = (n: number) => createWith(t, a, body, keys[n] ?? `k-${n}`);
      ok('create', await loop(sleeper(t), send, (n) => 500 * 2 ** n + Math.floor(random() * 250), 3));
    },
  },
  // "up to 4 attempts": Http::retry(5, ...) is five attempts, not five retries, but still one too many.
  {
    does: 'is a Lumen service with Http::retry(5, fn ($attempt) => $attempt * 300 + random_int(0, 150)), one read through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), lumenRetry(seeded(3955)), LUMEN_TIMES - 1));
    },
  },
  // "cursor (last number read)": the reader resumes from its checkpoint (every 5), not from what it read.
  {
    does: 'is a Scotty service reading the stream through conduit that resumes a cut after 7 messages from its every-5 checkpoint (message 5)',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutAndCheckpoint(t, auth(t), { n: 7, every: 5, resumeAt: (_ids, checkpoint) => checkpoint }),
  },
  // "renewed, not extended": the token cache is registered as a scoped service, so each circuit takes a new one.
  {
    does: 'is a Blazor Server app whose token cache is a scoped service: each circuit (a page load every 10 s for 3 minutes) takes a new 1-hour token',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 18; i++) {
        ok('read', await get(t, auth(t, undefined, 3_600), '/connectors'));
        await sleeper(t)(10_000);
      }
    },
  },
  // "renewed, not extended": each grain is collected after its read and takes a new token when reactivated.
  {
    does: 'is an Orleans silo whose per-tenant grains are collected after each read and take a new 1-hour token on every activation, three tenants read every 20 s for 5 minutes',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) => orleansGrains(t, { ttlS: 3_600, leftS: 300, staggerS: 0, minutes: 5, perActivation: true }),
  },
  // "never sent from a browser": hx-headers puts the token on the page; the browser adds Origin.
  {
    does: 'is an htmx page calling the service directly with hx-headers=\'{"Authorization": "Bearer …"}\': the browser adds Origin',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connectors', { headers: { origin: 'https://venue.partner.example' } });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a preview version is none.
  {
    does: 'is a Go Fiber client that sends Service-Version 2026-10-01 (a preview it read about) first and falls back to 2026-07-01 on the 400',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const first = await api(t, a, 'GET', '/providers', { version: '2026-10-01' });
      if (first.status !== 400) throw new Error(`answered ${first.status}`);
      ok('fallback', await api(t, a, 'GET', '/providers', { version: '2026-07-01' }));
    },
  },
  // "retry only after rate_limited and internal": the filter retries every 4xx but 401 and 429 "as transient".
  {
    does: 'is a Beego httplib filter retrying a create refused 400 (an unknown environment) unchanged under its key after 1 s and 2 s',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Beego Bibimbap', environment: 'staging-eu' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, 'beego-400-1'),
        (n) => 1_000 * (n + 1),
        2,
        (x) => x.status === 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "use a new key for each new operation": the key is the venue (a natural key), the second create differs.
  {
    does: 'is a Salvo client keying creates by venue (scopeLabel): a second create for the venue with other capabilities reuses the key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Salvo Sushi' };
      ok('create', await createWith(t, a, body, 'venue-salvo-sushi'));
      await sleeper(t)(30_000);
      const second = await createWith(t, a, { ...body, capabilities: ['orders.read'] }, 'venue-salvo-sushi');
      if (second.status !== 409 && second.status !== 422) throw new Error(`second answered ${second.status}`);
    },
  },
];
