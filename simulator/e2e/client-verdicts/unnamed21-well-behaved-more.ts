import { auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { retoolRetry, wgetLinear } from './unnamed21-kit.ts';

/**
 * Round 21, more well-behaved clients (Spring Cloud Gateway, wget, Retool, Firebase, Playwright, Kong, an
 * Airtable automation, and three stream consumers: httpx-sse, sseclient-py, the `eventsource` package).
 */
export const WELL_BEHAVED_MORE_21: UnnamedClient2[] = [
  // "Clients retry with growing intervals": a Spring Cloud Gateway route in front of the partner's backend
  // with the Retry filter (retries 3, statuses SERVICE_UNAVAILABLE, methods GET, backoff firstBackoff 500ms,
  // maxBackoff 5s, factor 2, basedOnPreviousValue false), through two gateway 503s.
  {
    does: 'is a Spring Cloud Gateway Retry filter (retries 3, GET, 503, backoff 500 ms x2 up to 5 s) re-sending a read through two gateway 503s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listProviders', retryAfterSeconds: 0, count: 2 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers?category=payments'),
          (n) => Math.min(500 * 2 ** n, 5_000),
          3,
        ),
      );
    },
  },
  // "retry with growing intervals" (linear growth is growth): a cron script's `wget --tries=4 --waitretry=10
  // --retry-on-http-error=503` (1 s, 2 s, 3 s), through three gateway 503s.
  {
    does: 'is a cron script running wget --tries=4 --waitretry=10 --retry-on-http-error=503 (1 s, 2 s, 3 s) through three gateway 503s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listConnectors', retryAfterSeconds: 0, count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wgetLinear, 3));
    },
  },
  // "the same key with the same content": a Retool workflow whose REST block (Retry on failure: 3,
  // exponential from 1000 ms) sends `Idempotency-Key: {{ workflowContext.runId }}-{{ startTrigger.data.venueId }}`.
  {
    does: 'is a Retool workflow REST block (retry 3, exponential from 1 s) keyed "{{ workflowContext.runId }}-{{ venueId }}", through a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Retool Rotisserie' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'wf-run-5521ab90-venue-4410'), retoolRetry, 3),
      );
    },
  },
  // "a failed create sent again by a sibling is its retry ... must carry its key": a Firebase 2nd-gen
  // Firestore-triggered function with `retry: true` keys its create with event.id; after the 500 it throws,
  // Eventarc redelivers the event 12 s later to a new instance, which fetches its own token at cold start.
  {
    does: 'is a Firebase 2nd-gen Firestore trigger (retry: true) keying its create with event.id, redelivered 12 s after a 500 after commit to a new instance with a new token',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Firebase Falafel' };
      const key = 'firestore-evt-1764240011223344-venues-ff01';
      const first = await createWith(t, auth(t), body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(12_000 + Math.round(seeded(2114)() * 4_000));
      replayed('create', await createWith(t, auth(t), body, key));
    },
  },
  // "A call repeated after a success is polling": a Playwright API test (request.newContext) creates a
  // connection under a key from the test's title and worker index, then `expect.poll` reads the connections at
  // its intervals [1_000, 2_000, 4_000] until the new one is listed.
  {
    does: 'is a Playwright API test creating under a key from its title and worker index, then expect.poll reading the connections at intervals 1 s, 2 s, 4 s',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok(
        'create',
        await createWith(t, a, { ...CONNECTION, scopeLabel: 'Playwright Pho' }, 'pw-w3-creates-a-venue-connection'),
      );
      for (const interval of [1_000, 2_000, 4_000]) {
        await sleeper(t)(interval);
        ok('poll', await get(t, a, '/connections'));
      }
    },
  },
  // "the same key after a dropped connection": a Kong service (retries 5, the default) re-sends a create at
  // once when its upstream connection breaks after the write; the headers, key included, go unchanged.
  {
    does: 'sits behind a Kong service (retries 5) that re-sends a create, key and all, at once after its upstream connection dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Kong Kimchi Bar' };
      replayed(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'kong-req-9d1e4c7b-create'),
          () => 0,
          5,
        ),
      );
    },
  },
  // "respect the wait time of the response": an Airtable automation's "Run a script" action runs in
  // Airtable's cloud (no browser); its script sleeps a 429's Retry-After (2 s) before reading again.
  {
    does: 'is an Airtable automation "Run a script" action (server side) sleeping a 429’s Retry-After of 2 s before reading again',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/capabilities'),
          (_n, r) => r.retryAfterMs + 120,
          2,
        ),
      );
    },
  },
  // "resumes without gaps by sending Last-Event-ID": a Python consumer on httpx-sse (`aconnect_sse`) keeps
  // `sse.id` of each event and sends it as Last-Event-ID when it reconnects after a cut (1 s later).
  {
    does: 'is a Python httpx-sse consumer cut after 3 messages, reconnecting 1 s later with Last-Event-ID of the last sse.id',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "by sending ... the query parameter cursor (last number read)": a sseclient-py consumer on requests whose
  // reconnect loop waits out a restart's 503s (their Retry-After) and reopens with ?cursor=<last id>.
  {
    does: 'is a sseclient-py consumer waiting out a restart’s 503s by Retry-After, then reopening with ?cursor= of the last id',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 4_000, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      let waitMs = 1_000;
      for (let n = 0; n < 6; n++) {
        await sleeper(t)(waitMs);
        let refused = false;
        await readStream(t, a, {
          cursor: last,
          asQuery: true,
          idleMs: 600,
          onRefused: (_s, ra) => {
            refused = true;
            waitMs = Math.max(ra, 1_000);
          },
          onOpen: () => publish(t, a.tenant, 1),
        });
        if (!refused) return;
      }
      throw new Error('never resumed');
    },
  },
  // "resumes without gaps by sending Last-Event-ID": the `eventsource` package (v3) in a Node worker, given
  // a custom fetch, reconnects after the stream's `retry:` hint with Last-Event-ID; cut twice.
  {
    does: 'is a Node worker on the eventsource package (v3, custom fetch) cut twice, each reconnect after the retry: hint with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 2 });
      let last: number | undefined;
      let retryMs = 3_000;
      for (const n of [2, 2, 1]) {
        const ids = await readStream(t, a, {
          cursor: last,
          idleMs: 600,
          onRetry: (ms) => {
            retryMs = ms;
          },
          onOpen: () => publish(t, a.tenant, n),
        });
        last = ids.at(-1) ?? last;
        await sleeper(t)(retryMs);
      }
    },
  },
];
