import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, draws, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import {
  cutAndResume,
  DLT_DEFAULT_RETRIES,
  dltWait,
  openrestySpreadRetryAfter,
  PHARO_DATE_PRINT,
  sqsFixedVisibility,
  watermillRetry,
} from './unnamed38-kit.ts';

/**
 * Round 38, misbehaving clients whose violation looks correct: dlt's defaults (five attempts), SQS's
 * fixed visibility timeout as the retry wait, a Retry-After "spread" by ±20 %, a Watermill retry whose rand
 * source is seeded per message, a Kafka-style cursor (next to read), kotlinx.serialization dropping a default
 * key, a ReuseTokenSource built per request, a reader whose proxy strips Last-Event-ID, an Astro island, a
 * Pharo Date as Service-Version, a create replayed after a 200 it could not parse. Each must fail exactly
 * its rule(s).
 */
export const MISBEHAVING_38: (FaultyClient & { options?: SandboxOptions })[] = [
  // "up to 4 attempts": dlt's request_max_attempts defaults to 5.
  {
    does: 'is a dlt REST source on its defaults (request_max_attempts 5, wait_exponential 1, 2, 4, 8 s), one read through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), dltWait, DLT_DEFAULT_RETRIES));
    },
  },
  // "growing intervals": Broadway's SQS producer leaves a failed message to the queue's visibility timeout
  // (30 s), so each redelivery of the keyed create waits the same.
  {
    does: 'is a Broadway SQS pipeline keyed by the message id that leaves a failed create to the queue’s 30 s visibility timeout, redelivered through two 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Broadway Bibimbap' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'sqs-msg-9a8b7c6d'), sqsFixedVisibility, 3));
    },
  },
  // "respect the wait time of the response": ngx.sleep(ra * (0.8 + 0.4 * math.random())) spreads the
  // Retry-After around itself; this draw (0.2) sleeps 1.76 s of 2.
  {
    does: 'is an OpenResty lua-resty-http loop “spreading” the Retry-After by ±20 % (ngx.sleep(ra * (0.8 + 0.4 * math.random()))), one 429 (Retry-After 2)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), openrestySpreadRetryAfter(draws([0.2])), 1));
    },
  },
  // "slight random spread": each message's handler builds its backoff with rand.New(rand.NewSource(1)), so
  // every retry sequence draws the same: three reads through two 500s each wait the same pair.
  {
    does: 'is a Watermill Retry (RandomizationFactor 0.5) whose backoff is built per message with rand.NewSource(1): three reads through two 500s draw the same waits',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), watermillRetry(draws([0.3, 0.7])), 2));
        await sleeper(t)(5_000);
      }
    },
  },
  // "cursor (last number read)": the reader stores a Kafka-style offset, the next number to read.
  {
    does: 'is a vibe.d stream reader that stores a Kafka-style committed offset (last read + 1) and resumes with it as Last-Event-ID',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, auth(t), (last) => ({ cursor: last + 1 })),
  },
  // "resumes without gaps": the reader sends Last-Event-ID only, and its proxy strips it: a gap.
  {
    does: 'reads the stream through a proxy that strips Last-Event-ID, sending the cursor only as that header: the reconnect carries none',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, auth(t), () => ({})),
  },
  // "the same key with the same content": the request model's key is a default value
  // (`val key: String = UUID.randomUUID().toString()`), and the queue's Json has encodeDefaults = false, so
  // the stored message lacks it and each retry decodes a new one.
  {
    does: 'is a Kotlin worker whose @Serializable request has key = UUID.randomUUID() as a default, queued with encodeDefaults = false: each retry after a 500 decodes a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Kotlin Kimchi' };
      const keys = ['3e0f8a1c-4b2d', '9c7d1e2f-0a3b', '5b6a7c8d-9e0f'];
      const send = (n: number) => createWith(t, a, body, `req-${keys[n] ?? n}`);
      const random = seeded(3858);
      const backoff = (n: number) => 500 * 2 ** n + Math.floor(random() * 250);
      ok('create', await loop(sleeper(t), send, backoff, 3));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": oauth2.ReuseTokenSource(nil, src) is built inside
  // the per-request client factory, so its cache lives one call: a new token every 15 s.
  {
    does: 'is a Go service building oauth2.ReuseTokenSource(nil, src) inside its per-request client factory: a new 1-hour token for each read, every 15 s for 4 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 16; i++) {
        ok('read', await get(t, auth(t, undefined, 3_600), '/connectors'));
        await sleeper(t)(15_000);
      }
    },
  },
  // "never sent from a browser": the Astro component is hydrated with client:load, so its fetch (token from
  // a PUBLIC_ env variable) runs in the browser, which adds Origin.
  {
    does: 'is an Astro island (client:load) fetching connectors with a token from import.meta.env.PUBLIC_NCS_TOKEN: the browser adds Origin',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      // The service refuses it (403), which the island shows as an error; the token has left the backend anyway.
      await api(t, a, 'GET', '/connectors', { headers: { origin: 'https://shop.partner.example' } });
    },
  },
  // "a header Service-Version with the version identifier": Pharo's Date printString is '1 July 2026'.
  {
    does: 'is a Pharo ZnClient sending Service-Version: (Date year: 2026 month: 7 day: 1) printString, i.e. "1 July 2026"',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      // The service refuses an unpublished version (400); the client logs it as a provider outage.
      const r = await api(t, a, 'GET', '/providers', { version: PHARO_DATE_PRINT });
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "Retry guidance: retry only after rate_limited and internal": the client's decoder threw on the 200
  // (a field it did not know), so its retry wrapper sent the create again under the same key ("it is
  // repeat-safe").
  {
    does: 'sends a create again under the same key 500 ms after its 200, because its strict decoder threw on an unknown field and the retry wrapper caught it',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Strict Decoder Dal' };
      ok('create', await createWith(t, a, body, 'strict-1'));
      await sleeper(t)(500);
      ok('again', await createWith(t, a, body, 'strict-1'));
    },
  },
];
