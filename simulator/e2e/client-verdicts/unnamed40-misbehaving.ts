import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, TENANTS } from './unnamed30-kit.ts';
import {
  adaLessRoundTrip,
  byTokenGroup,
  cutAndResume,
  hareClamped,
  ioFirstOnly,
  MULE_DEFAULTS,
  ODIN_RETRIES,
  odinAttempts,
  regionalFailover,
  tclAfter,
} from './unnamed40-kit.ts';

/**
 * Round 40, misbehaving clients whose violation looks correct: a Hare clamp repeating the first wait, MuleSoft's
 * until-successful defaults, an Odin off-by-one range, an Io script honouring only the first Retry-After, an
 * Ada client taking its round trip off Retry-After, a Guile per-tenant cache renewing early, a Kafka-minded
 * reader resuming at last id + 1, a Vala retry rebuilding its message, a Cordova WebView, a Kitura key of the
 * connector only, an Oat++ client sending the version with its JSON quotes, a Smalltalk read retried after its 404.
 */
export const MISBEHAVING_40: (FaultyClient & { options?: SandboxOptions })[] = [
  // "growing intervals": 500 << max(n - 1, 0) waits 500 ms twice, and no draw spreads it.
  {
    does: 'is a Hare loop doing time::sleep((500 << max(n - 1, 0)) ms), three reads through three 500s each: 500, 500, 1000 ms',
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: hareClamped, failures: 3, max: 3 }),
  },
  // "growing intervals" and "up to 4 attempts": until-successful's defaults retry 5 times, 60 s apart.
  {
    does: 'is a MuleSoft 4 until-successful scope left at its defaults (maxRetries 5, millisBetweenRetries 60000) around a keyed create through five 500s',
    fails: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: MULE_DEFAULTS.maxRetries });
      const body = { ...CONNECTION, scopeLabel: 'Mule Moussaka' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, 'mule-corr-4021'),
        () => MULE_DEFAULTS.millisBetweenRetries,
        MULE_DEFAULTS.maxRetries,
      );
      ok('create', r);
    },
  },
  // "up to 4 attempts": `for attempt in 0..=4` is five attempts.
  {
    does: 'is an Odin loop for attempt in 0..=4 (meant as four attempts) with (500 << attempt) ms plus a draw, one read through four 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: ODIN_RETRIES });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), odinAttempts(seeded(4023)), ODIN_RETRIES));
    },
  },
  // "respect the wait time of the response": the second 429's Retry-After is never read.
  {
    does: 'is an Io script honouring Retry-After on the first 429 only, then its own 500 * 2 ** n ms, through two 429s (Retry-After 2)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (n, r) => ioFirstOnly(n, r.retryAfterMs),
          3,
        ),
      );
    },
  },
  // "respect the wait time of the response": the wait runs from the answer, not from the request.
  {
    does: 'is an Ada client subtracting its 250 ms round trip from Retry-After (2 s) after a 429',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (_n, r) => adaLessRoundTrip(r.retryAfterMs),
          1,
        ),
      );
    },
  },
  // "renewed, not extended": a cache keyed per tenant that renews any token older than 2 minutes.
  {
    does: 'is a Guile integrator caching a 10-minute token per tenant and renewing each once older than 2 minutes, reading every tenant every 20 s for 12 minutes',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) =>
      byTokenGroup(t, TENANTS, { group: (tenant) => tenant, ttlS: 600, renewAfterS: 120, everyS: 20, minutes: 12 }),
  },
  // "(last number read)": a Kafka-minded reader sends the next offset it wants, last id + 1.
  {
    does: 'is a Tcl stream reader resuming a cut with Last-Event-ID set to last id + 1 (the next offset, as a Kafka consumer commits)',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, auth(t), { n: 5, resumeAt: (ids) => (ids.at(-1) ?? 0) + 1 }),
  },
  // "the same key with the same content": the retry handler rebuilds the Soup.Message, and the key with it.
  {
    does: 'is a Vala libsoup client whose retry handler rebuilds the Soup.Message after a 503, generating a new Idempotency-Key each time',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Vala Vindaloo' };
      const wait = tclAfter(seeded(4028));
      ok(
        'create',
        await loop(
          sleeper(t),
          (n) => createWith(t, a, body, `soup-${4028 + n}`),
          (n) => 1_000 + wait(n),
          3,
        ),
      );
    },
  },
  // "never sent from a browser": a Cordova app's WebView is a browser; it adds Origin.
  {
    does: 'is a Cordova app calling the service from its WKWebView with the token it keeps in localStorage (Origin app://localhost)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers', { headers: { origin: 'app://localhost' } });
    },
  },
  // "use a new key for each new operation": the key is a hash of connector and environment only.
  {
    does: 'is a Kitura client keying creates by SHA-256 of connectorId and environment: a second venue on the same connector reuses the key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'sha256-tillcraft-pos-cloud-sandbox-9f2c';
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Kitura Kebab' }, key));
      await sleeper(t)(20_000);
      const second = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Kitura Kimchi' }, key);
      if (second.status !== 409 && second.status !== 422) throw new Error(`second answered ${second.status}`);
    },
  },
  // "a header Service-Version with the version identifier": the config value keeps its JSON quotes.
  {
    does: 'is an Oat++ client reading Service-Version from its JSON config with the raw token text, so it sends "2026-07-01" with the quotes',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers', { version: '"2026-07-01"' });
    },
  },
  // "retry only after rate_limited and internal": a 404 repeated with backoff, "in case it is not there yet".
  {
    does: 'is a GNU Smalltalk client re-reading a connection answered 404 after 1 s, 2 s and 4 s, in case it is not visible yet',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const r = await loop(
        sleeper(t),
        () => api(t, a, 'GET', '/connections/con_missing_4032'),
        (n) => 1_000 * 2 ** n,
        3,
        (x) => x.status === 404,
      );
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "up to 4 attempts": one process fails over to its other region's token and goes on counting.
  {
    does: 'is an integrator with one token per region reading tenant A through the eu region (two 500s) and then failing over to the us region, whose own token it uses for tenant C at the same time, for three more attempts',
    fails: ['retry.attempt-limit'],
    options: ALL_TENANTS,
    run: (t) => regionalFailover(t),
  },
];
