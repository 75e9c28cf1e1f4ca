import { auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';

/**
 * Round 22, more well-behaved clients (OpenFeign with a tuned Retryer, pgmq and QStash consumers, a Home
 * Assistant REST sensor, Authlib's token leeway, and three stream consumers: clue/reactphp-eventsource, a
 * Kotlin OkHttp `EventSource` and a Python aiohttp consumer checkpointing every message).
 */
export const WELL_BEHAVED_MORE_22: UnnamedClient2[] = [
  // "respect the wait time of the response": OpenFeign with `new Retryer.Default(100, 5000, 4)`: the
  // ErrorDecoder turns Retry-After into the next interval, capped at maxPeriod 5 s, so a Retry-After of 3 s
  // is slept whole.
  {
    does: 'is an OpenFeign client with Retryer.Default(100, 5000, 4) (maxPeriod above the Retry-After) sleeping a 429’s Retry-After of 3 s',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) =>
        Math.min(r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(100 * 1.5 ** n), 5_000);
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers?category=payments'), wait, 3));
    },
  },
  // "the same key with the same content": a pgmq consumer (`pgmq.read('venues', vt => 30, qty => 1)`) keys its
  // create with "pgmq-venues-<msg_id>"; after a 500 after commit it does not delete the message, which comes
  // back when its 30 s visibility timeout lapses, read_ct 2.
  {
    does: 'is a pgmq consumer keying its create with the message id, the message read again after its 30 s visibility timeout following a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Pgmq Pelmeni' };
      const first = await createWith(t, a, body, 'pgmq-venues-msg-90317');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(30_000);
      replayed('create', await createWith(t, a, body, 'pgmq-venues-msg-90317'));
    },
  },
  // "a failed create sent again by a sibling is its retry ... must carry its key": an Upstash QStash message
  // delivered to a serverless route that keys its create with Upstash-Message-Id; the route answers 500 after
  // the API's 500, QStash redelivers about 12 s later (e^2.5 s) to a new instance with its own token.
  {
    does: 'is a QStash-triggered serverless route keying its create with Upstash-Message-Id, redelivered about 12 s after a 500 after commit to a new instance with a new token',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'QStash Quesadilla' };
      const key = 'qstash-msg_7YoJxFpwkEy5zBp378JgvD6YBDPBEqkBPje2JGTCEUiASMJQ1FwY9';
      const first = await createWith(t, auth(t), body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(12_182);
      replayed('create', await createWith(t, auth(t), body, key));
    },
  },
  // "A call repeated after a success is polling": a Home Assistant `rest` sensor (scan_interval 30) on the
  // partner's server reads the connections every 30 s, Service-Version among its headers.
  {
    does: 'is a Home Assistant rest sensor (scan_interval 30, server side) polling the connections six times with Service-Version in its headers',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 6; i++) {
        ok('poll', await get(t, a, '/connections'));
        await sleeper(t)(30_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended": Authlib's OAuth2Client (leeway 60) fetches a new
  // 5-minute token when less than 60 s is left, paging the audit log every 30 s for 11 minutes.
  {
    does: 'is a Python job on Authlib’s OAuth2Client (leeway 60) paging the audit log every 30 s for 11 minutes with 5-minute tokens, renewed when under 60 s is left',
    pass: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 300);
      let issued = 0;
      for (let s = 0; s <= 660; s += 30) {
        if (300 - (s - issued) < 60) {
          a = auth(t, undefined, 300);
          issued = s;
        }
        ok('page', await get(t, a, `/audit-log?limit=${10 + (s / 30) * 2}`));
        await sleeper(t)(30_000);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID": a PHP worker on clue/reactphp-eventsource, which keeps
  // the last `id:` and reconnects after the `retry:` delay with Last-Event-ID; cut after 3 messages.
  {
    does: 'is a PHP ReactPHP worker on clue/reactphp-eventsource cut after 3 messages, reconnecting after the retry: delay with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      let retryMs = 3_000;
      const ids = await readStream(t, a, {
        idleMs: 600,
        onRetry: (ms) => {
          retryMs = ms;
        },
        onOpen: () => publish(t, a.tenant, 3),
      });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(retryMs);
      await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "by sending ... the query parameter cursor (last number read)": OkHttp's `EventSource` does not reconnect
  // by itself; a Kotlin listener's onFailure schedules a new request 2 s later, ?cursor= the last id seen.
  {
    does: 'is a Kotlin OkHttp EventSource listener reconnecting 2 s after onFailure (a cut after 2 messages) with ?cursor= of the last id',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(2_000);
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "resumes without gaps": a Python aiohttp consumer writing each id to SQLite as it handles it, restarted by
  // its supervisor 4 s after a server restart's 503s (honouring their Retry-After), with Last-Event-ID from
  // the table and a new token.
  {
    does: 'is a Python aiohttp consumer checkpointing every id in SQLite, restarted with a new token after a server restart, resuming with Last-Event-ID from the table',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const first = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 3, downMs: 3_000, count: 1 });
      const ids = await readStream(t, first, { idleMs: 600, onOpen: () => publish(t, first.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      let waitMs = 4_000;
      for (let n = 0; n < 5; n++) {
        await sleeper(t)(waitMs);
        const a = auth(t);
        let refused = false;
        await readStream(t, a, {
          cursor: last,
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
];
