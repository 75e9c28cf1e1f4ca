import { createHash } from 'node:crypto';
import { auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { airbyteExponential, qtTimer } from './unnamed19-kit.ts';

/** Go's uuid.NewSHA1(namespace, name), shortened: the same operation always gets the same key. */
const uuidV5 = (name: string) => `v5-${createHash('sha1').update(`ncs-partner:${name}`).digest('hex').slice(0, 32)}`;

/**
 * Round 19, more well-behaved clients (fetch-retry, an Odoo cron, Airbyte, Qt, r3labs/sse, a NestJS SSE
 * relay, an Okta SDK, natural keys, an asynq periodic task).
 */
export const WELL_BEHAVED_MORE_19: UnnamedClient2[] = [
  // "the same key with the same content": fetch-retry re-sends the same Request (headers and body, so
  // the key) with retryOn [429, 500, 503] and retryDelay 2^n s plus a draw.
  {
    does: 'is fetch-retry (retryOn [429, 500, 503], retryDelay 2^n s + draw) re-sending the same Request of a create through one 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1921);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Fetch Retry Falafel' };
      const wait = (n: number) => 1_000 * 2 ** n + Math.floor(random() * 300);
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'fr-2f9a61c0-create'), wait, 3));
    },
  },
  // A read "polled at a fixed cadence that keeps it through failures" is polling: an Odoo ir.cron
  // (interval 1 minute) reading the connections, two of its runs answered 500.
  {
    does: 'is an Odoo ir.cron (every 1 minute) reading the connections, two runs in a row answered 500 and the cron keeping its cadence',
    pass: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      for (let run = 0; run < 5; run++) {
        if (run === 1) fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
        await get(t, a, '/connections');
        await sleeper(t)(60_000);
      }
    },
  },
  // "respect the wait time of the response, retry with growing intervals": an Airbyte low-code stream with a
  // WaitTimeFromHeader(Retry-After) filter for 429 and ExponentialBackoffStrategy(factor 5) for 5xx.
  {
    does: 'is an Airbyte low-code connector reading providers through a 429 (Retry-After 7, WaitTimeFromHeader) then a 500 (ExponentialBackoffStrategy factor 5)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 7, count: 1 });
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      const wait = (n: number, r: { status: number; retryAfterMs: number }) =>
        r.status === 429 ? r.retryAfterMs : airbyteExponential(n);
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers?category=pos'), wait, 3));
    },
  },
  // "the same key with the same content returns the same response again": a Qt daemon (QNetworkAccessManager)
  // keeps the QNetworkRequest, key header included, and re-posts it from a QTimer after a dropped connection.
  {
    does: 'is a Qt daemon re-posting the same QNetworkRequest (key header kept) from a QTimer (1 s + bounded(250)) after its create’s connection dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Signal Slot Sandwiches' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'qt.req.9b1e-0019'), qtTimer(seeded(1924)), 3),
      );
    },
  },
  // "resumes without gaps by sending Last-Event-ID": r3labs/sse keeps the last id it read and sends it on
  // each reconnect, here after two cuts.
  {
    does: 'is a Go r3labs/sse client cut twice (after 2 messages each time), reconnecting with Last-Event-ID of the last message read each time',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 2 });
      let last: number | undefined;
      for (const n of [2, 2, 1]) {
        const ids = await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, n) });
        last = ids.at(-1) ?? last;
        await sleeper(t)(1_500);
      }
    },
  },
  // "by sending Last-Event-ID or the query parameter cursor": a NestJS @Sse relay for its own dashboards;
  // the service restarts (503 with Retry-After), the relay waits it out and resumes with ?cursor=.
  {
    does: 'is a NestJS @Sse relay whose upstream stream ends in a restart, waiting out the 503’s Retry-After, then resuming with ?cursor= of the last message relayed',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 3_000, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      let refused = 0;
      await readStream(t, a, {
        cursor: last,
        asQuery: true,
        idleMs: 600,
        onRefused: (_s, ms) => {
          refused = ms;
        },
      });
      await sleeper(t)(Math.max(refused, 3_000));
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "Tokens are short-lived and are renewed, not extended": an Okta management SDK caching its 5-minute
  // client-credentials token and renewing it 60 s before expiry, a call a minute.
  {
    does: 'is an Okta SDK caching a 300 s client-credentials token and renewing it 60 s before expiry, one read a minute for 10 minutes',
    pass: [],
    async run(t) {
      let a = auth(t, undefined, 300);
      let issued = 0;
      for (let minute = 0; minute < 10; minute++) {
        if (minute * 60 - issued >= 240) {
          a = auth(t, undefined, 300);
          issued = minute * 60;
        }
        ok('read', await get(t, a, minute % 2 ? '/providers' : '/connectors'));
        await sleeper(t)(60_000);
      }
    },
  },
  // "use a new key for each new operation" / "the same key with the same content": keys derived as UUIDv5 of
  // tenant and venue, two creates, the first retried after its 429's Retry-After under its key.
  {
    does: 'derives each create’s key as a UUIDv5 of tenant and venue, two creates, the first retried under its key after a 429’s Retry-After (2 s)',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      for (const scopeLabel of ['Natural Key Noodles', 'Natural Key Nachos']) {
        const body = { ...CONNECTION, scopeLabel };
        const key = uuidV5(`${a.tenant}/${scopeLabel}`);
        ok(
          scopeLabel,
          await loop(
            sleeper(t),
            () => createWith(t, a, body, key),
            (_n, r) => r.retryAfterMs,
            3,
          ),
        );
        await sleeper(t)(1_000);
      }
    },
  },
  // "respect the wait time of the response": an asynq periodic task (every 30 s) reading connectors; one run
  // is answered 429 (Retry-After 10) and the next run comes 30 s later.
  {
    does: 'is an asynq periodic task (@every 30s) reading the connectors, one run answered 429 (Retry-After 10) and the next run 30 s later',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      for (let run = 0; run < 4; run++) {
        if (run === 2) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 10, count: 1 });
        await get(t, a, '/connectors');
        await sleeper(t)(30_000);
      }
    },
  },
  // "respect the wait time of the response": a gateway 503 carries Retry-After: 2, and the worker (a
  // Faktory job's own retry loop) waits it out each time; equal waits, both set by the server.
  {
    does: 'is a Faktory job honouring a gateway 503’s Retry-After (2 s) twice before its read succeeds (equal waits, both the server’s)',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listCapabilities', retryAfterSeconds: 2, count: 2 });
      const wait = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs || 1_000 * 2 ** n;
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), wait, 3));
    },
  },
];
