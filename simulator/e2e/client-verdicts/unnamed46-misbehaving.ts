import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { refused, sharedTokenCache } from './unnamed45-kit.ts';
import { bodyFor, checkpointStore, keyFor, lastOf, readCut } from './unnamed46-kit.ts';

/**
 * Round 46, misbehaving clients whose stream and writes meet: a stream rebuilt with a new token that forgets
 * its last number, a consumer rewound by another call's 429, a consumer trusting its own number over the shared
 * store, a create for a message retried under a new key or stamped anew, a handler retrying a 400, a failover to
 * the main address without the cursor, an SDK reconnecting at once through a restart, a stream 429 waited short,
 * batch keys by position, a shared fixed-wait policy. Each must fail exactly the rule it breaks.
 */
export const MISBEHAVING_46: (FaultyClient & { options?: SandboxOptions })[] = [
  // "resumes without gaps by sending Last-Event-ID or ... cursor (last number read)".
  {
    does: 'is a Go service whose 401 handler rebuilds the r3labs/sse client with the renewed token, losing its LastEventID: the stream cut after three messages reconnects with no cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const cache = sharedTokenCache(t, undefined, 120);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      await readCut(t, cache.get(), 3);
      await sleeper(t)(121_000);
      const old = cache.get();
      refused('expired', await get(t, old, '/connections'), 401, 'unauthorized');
      const renewed = await cache.renew(old);
      await readStream(t, renewed, { idleMs: 400, onOpen: () => publish(t, old.tenant, 1) });
    },
  },
  // "(last number read)": a consumer rewound to its last committed checkpoint by another call's 429.
  {
    does: 'is a Spring Boot app whose RateLimitedException handler restarts every consumer from its last committed checkpoint (committed every fifth message): after a 429 on GET /connectors the stream, cut after four messages, resumes from 0',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 1 });
      await readCut(t, a, 4);
      ok(
        'connectors',
        await loop(
          sleep,
          () => get(t, a, '/connectors'),
          (_n, r) => r.retryAfterMs + 100,
          3,
        ),
      );
      await readStream(t, a, { cursor: 0, idleMs: 400 });
    },
  },
  // "resumes without gaps (last number read)": the number in its own memory, older than what its sibling read.
  {
    does: 'is a Node.js process of two consumers sharing one token and one checkpoint store, one of which reconnects with the number in its own memory instead of the store: its sibling had resumed and read two more meanwhile',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const store = checkpointStore();
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const mine = lastOf(await readCut(t, a, 3));
      store.set(a.tenant, mine);
      await sleeper(t)(500);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      store.set(a.tenant, lastOf(await readCut(t, a, 2, { cursor: store.get(a.tenant) ?? 0 })));
      await sleeper(t)(3_000);
      await readStream(t, a, { cursor: mine, idleMs: 400 });
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": the attempt number in the key makes it new.
  {
    does: 'is a Python consumer on httpx-sse whose create per message is keyed f"{event_id}-{attempt}", so the create a 500 hits is retried after 600 ms under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const id = lastOf(ids);
      refused('first', await createWith(t, a, bodyFor(id), `${keyFor('py', id)}-0`), 500);
      await sleeper(t)(600);
      ok('again', await createWith(t, a, bodyFor(id), `${keyFor('py', id)}-1`));
    },
  },
  // "retry only after rate_limited and internal": Spring Retry's @Retryable with no exception filter.
  {
    does: 'is a Spring Cloud Stream handler annotated @Retryable (maxAttempts 3, backoff 1 s, every exception) whose create for a message with a one-letter venue name is refused 400 and sent twice more under its key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const ids = await readStream(t, a, { count: 1, onOpen: () => publish(t, a.tenant, 1) });
      const id = lastOf(ids);
      const body = { ...bodyFor(id), scopeLabel: 'X' };
      for (let n = 0; n < 3; n++) {
        if (n) await sleep(1_000);
        refused(`attempt ${n}`, await createWith(t, a, body, keyFor('spring', id)), 400);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID or ... cursor": the main address's client never read a number.
  {
    does: 'is a Python service holding one sseclient-py instance per address: reading on the alternate address, cut after two messages, it fails over to the main address’s instance, whose last_id is still None',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      await readCut(alternate(t), a, 2);
      await sleeper(t)(1_000);
      await readStream(t, a, { idleMs: 400 });
    },
  },
  // "Clients retry with growing intervals": a hand-written reconnect loop ignoring retry: and Retry-After.
  {
    does: 'is a Go reconnect loop written around bufio.Scanner that ignores the retry: field and the 503’s Retry-After: through a server restart it reconnects at once three times with Last-Event-ID, then gives up',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 10_000, count: 1 });
      const last = lastOf(await readCut(t, a, 2));
      for (let n = 0; n < 4; n++) {
        let status = 0;
        await readStream(t, a, { cursor: last, onRefused: (s) => (status = s) });
        if (status !== 503) throw new Error(`reconnect ${n} answered ${status}`);
      }
    },
  },
  // "respect the wait time of the response": the stream's own 429, waited for only the retry: hint's length.
  {
    does: 'is a browser-less Node.js eventsource v2 client whose reconnect is refused 429 (Retry-After 5 s) and which waits only the retry: field’s 3 s before resuming with Last-Event-ID',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      let retryMs = 1_000;
      const ids = await readStream(t, a, {
        count: 2,
        onRetry: (ms) => (retryMs = ms),
        onOpen: () => publish(t, a.tenant, 2),
      });
      fault(t, { kind: 'rate_limited', route: '/api/public/v1/stream', retryAfterSeconds: 5, count: 1 });
      await sleeper(t)(retryMs);
      let status = 0;
      await readStream(t, a, { cursor: lastOf(ids), onRefused: (s) => (status = s) });
      if (status !== 429) throw new Error(`reconnect answered ${status}`);
      await sleeper(t)(retryMs);
      await readStream(t, a, { cursor: lastOf(ids), idleMs: 400 });
    },
  },
  // "use a new key for each new operation": keys by position in the poll, reused by the next poll.
  {
    does: 'is a Kafka Connect-style sink task that keys each create by its position in the poll (batch-slot-0, -1), so the second poll of two messages sends other venues under the first poll’s keys',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      let cursor: number | undefined;
      for (let poll = 0; poll < 2; poll++) {
        const ids = await readStream(t, a, {
          count: 2,
          ...(cursor === undefined ? {} : { cursor }),
          onOpen: () => publish(t, a.tenant, 2),
        });
        await Promise.all(ids.map((id, slot) => createWith(t, a, bodyFor(id), `batch-slot-${slot}`)));
        cursor = lastOf(ids);
        await sleeper(t)(2_000);
      }
    },
  },
  // "The same key with different content yields idempotency_conflict": the retry stamps the body anew.
  {
    does: 'is a Node.js consumer whose create per message carries a receivedAt stamped when the request is built, so the retry of a 500 under the message’s key 700 ms later sends other content',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const ids = await readStream(t, a, { count: 1, onOpen: () => publish(t, a.tenant, 1) });
      const id = lastOf(ids);
      const stamped = () => bodyFor(id, { scopeLabel: `Stream Venue ${id} at ${t.sandbox.state.clock.now()}` });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      refused('first', await createWith(t, a, stamped(), keyFor('node', id)), 500);
      await sleeper(t)(700);
      await createWith(t, a, stamped(), keyFor('node', id));
    },
  },
  // "Clients retry with growing intervals": one fixed-wait policy for the reconnects and the reads.
  {
    does: 'is a Resilience4j Retry (maxAttempts 4, waitDuration 1 s, no backoff) shared by a stream consumer and its reads: GET /connections, hit by three 500s, is sent again every second',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4611);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const last = lastOf(await readCut(t, a, 2));
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok(
        'connections',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          () => 1_000 + Math.floor(random() * 3),
          3,
        ),
      );
      await readStream(t, a, { cursor: last, idleMs: 400 });
    },
  },
];
