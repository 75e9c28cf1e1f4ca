import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { cachedTokenReads } from './unnamed14-kit.ts';
import { afterRetryAfter, boomiTryCatch, checkpointedStream, sample } from './unnamed15-kit.ts';

/**
 * Round 15, more well-behaved clients (integration platforms, tokens, streams). Each must get no
 * `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_MORE_15: UnnamedClient2[] = [
  // "the same key with the same content": a .NET Refit interface whose create takes
  // `[Header("Idempotency-Key")] string key`; the caller makes the key once and a Polly-free
  // DelegatingHandler resends the cloned HttpRequestMessage (headers kept) after a committed 500.
  {
    does: 'is a .NET Refit client with a [Header("Idempotency-Key")] parameter made once by the caller, its DelegatingHandler resending the cloned request after a committed 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1511);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = uuid(random);
      const body = { ...CONNECTION, scopeLabel: 'Refit Roastery' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), sample(random), 3));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an SAP CPI iFlow whose JMS sender queue
  // redelivers a failed message after its retry interval (1 min); the key is the sender's
  // SAP_ApplicationID, which stays with the message across redeliveries.
  {
    does: 'is an SAP CPI iFlow on a JMS queue redelivering a create after a committed 500 a minute later, keyed by the message’s SAP_ApplicationID',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'sap-app-id:PO4711-20261127-0001';
      const body = { ...CONNECTION, scopeLabel: 'CPI Canteen Walldorf' };
      replayed(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          () => 60_000,
          1,
        ),
      );
    },
  },
  // "the same key with the same content": a Boomi process whose Try/Catch shape retries twice (10 s,
  // then 30 s); the key is a document property set before the Try.
  {
    does: 'is a Boomi process whose Try/Catch retries a create (10 s, then 30 s) with the key set as a document property before the Try',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const key = `boomi-${uuid(seeded(1513))}`;
      const body = { ...CONNECTION, scopeLabel: 'Boomi Brasserie' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), boomiTryCatch, 2));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": Refit's AuthorizationHeaderValueGetter backed
  // by IMemoryCache with AbsoluteExpirationRelativeToNow = expires_in - 30 s.
  {
    does: 'is a .NET Refit client whose AuthorizationHeaderValueGetter caches its 300 s token until 30 s before expiry, reading every 30 s for 25 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      await cachedTokenReads(t, {
        ttlS: 300,
        everyMs: 30_000,
        minutes: 25,
        due: (_, expires, at) => expires - at <= 30_000,
      });
    },
  },
  // "resumes without gaps by sending Last-Event-ID": a Crystal HTTP::Client reading the stream line by
  // line, keeping the last `id:` and sending it as Last-Event-ID after the server ends the stream.
  {
    does: 'is a Crystal HTTP::Client SSE reader sending its last id as Last-Event-ID after the stream is cut after 3 messages',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(1_000);
      const more = await readStream(t, a, {
        cursor: ids.at(-1) ?? 0,
        idleMs: 600,
        onOpen: () => publish(t, a.tenant, 2),
      });
      if (more[0] !== (ids.at(-1) ?? 0) + 1) throw new Error(`resumed at ${more}`);
    },
  },
  // "resumes without gaps by sending ... the query parameter cursor": an Erlang gun SSE consumer
  // (gun_sse_h) whose reconnects meet a restart's 503s, waits each Retry-After, then sends ?cursor=.
  {
    does: 'is an Erlang gun SSE consumer waiting out a restart’s 503s (Retry-After) and resuming with ?cursor= of the last id',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 3_000, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1) ?? 0;
      for (let attempt = 0; attempt < 5; attempt++) {
        let refused = 0;
        await readStream(t, a, {
          cursor: last,
          asQuery: true,
          idleMs: 600,
          onOpen: () => publish(t, a.tenant, 1),
          onRefused: (_s, ms) => (refused = ms || 1_000),
        });
        if (!refused) return;
        await sleeper(t)(refused + 100);
      }
      throw new Error('the stream never came back');
    },
  },
  // "resumes without gaps ... (last number read)": an OCaml consumer that commits its position after
  // every message (checkpoint interval 1) and resumes from the committed one after the cut.
  {
    does: 'is an OCaml SSE consumer committing its position after every message and resuming from the committed one after a cut',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      await checkpointedStream(t, auth(t), { every: 1, cutAfter: 4, resume: (_last, committed) => committed });
    },
  },
  // "growing intervals and slight random spread": a COBOL batch step (z/OS Connect) checking capabilities,
  // EXEC CICS DELAY of 1 s, 2 s, 4 s plus FUNCTION RANDOM * 0.25 s between attempts.
  {
    does: 'is a COBOL batch step via z/OS Connect checking two capabilities, each through two 500s, with CICS DELAYs of 1 s, 2 s plus a FUNCTION RANDOM draw',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1518);
      for (const capability of ['orders.read', 'payments.refund']) {
        fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
        const body = { connectorId: CONNECTION.connectorId, capability };
        const wait = (n: number) => 1_000 * 2 ** n + Math.floor(random() * 250);
        ok(capability, await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), wait, 3));
        await sleeper(t)(3_000);
      }
    },
  },
  // "respect the wait time of the response": a Racket service on net/http-easy that reads Retry-After
  // with string->number and sleeps it plus up to 250 ms, its own doubling otherwise.
  {
    does: 'is a Racket service on net/http-easy sleeping Retry-After (3 s) plus up to 250 ms after a 429, then its doubling after a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1519);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), afterRetryAfter(random, sample(random)), 3));
    },
  },
  // "Modifying calls are repeat-safe": a Gleam OTP app with one actor per venue, two venues' creates
  // sent at once, both dropped after commit, each retried under its own actor's key.
  {
    does: 'is a Gleam OTP app with one actor per venue, two venues’ creates sent at once, dropped after commit and each retried under its own key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const random = seeded(1520);
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 2 });
      await Promise.all(
        [0, 1].map(async (i) => {
          const key = `gleam-actor-${i}-${uuid(random)}`;
          const body = { ...CONNECTION, scopeLabel: `Gleam Actor Venue ${i}` };
          replayed(`venue ${i}`, await loop(sleeper(t), () => createWith(t, a, body, key), sample(random), 3));
        }),
      );
    },
  },
];
