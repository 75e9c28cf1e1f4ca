import { api, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop, replayed } from './unnamed11-kit.ts';
import { refused, sharedTokenCache } from './unnamed45-kit.ts';
import { checkpointStore, createFor, lastOf, readCut } from './unnamed46-kit.ts';

/**
 * Round 46, well-behaved clients whose stream and writes meet: a consumer resuming after its token was renewed
 * on another call's 401, or after another call's 429; two consumers sharing one checkpoint store; stream readers
 * creating a connection per message and retrying that create under its message-derived key; readers on the
 * alternate address; SDKs obeying the stream's `retry:` field and a restart's Retry-After. Each must get no
 * `fail`; the interface sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_46: UnnamedClient2[] = [
  // "After an interruption, the client resumes without gaps ... (last number read)"; "request a new access token".
  {
    does: 'is a Go service on r3labs/sse whose writer’s GET /connections meets a 401 (token expired), renews through its oauth2.TokenSource, and whose stream, cut after three messages, reconnects with the new token and Last-Event-ID of the third',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const cache = sharedTokenCache(t, undefined, 120);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readCut(t, cache.get(), 3);
      await sleeper(t)(121_000);
      const old = cache.get();
      refused('expired', await get(t, old, '/connections'), 401, 'unauthorized');
      ok('renewed', await get(t, await cache.renew(old), '/connections'));
      await readStream(t, cache.get(), { cursor: lastOf(ids), idleMs: 400, onOpen: () => publish(t, old.tenant, 1) });
    },
  },
  // "respect the wait time of the response"; the stream is resumed from the last number read meanwhile.
  {
    does: 'is a Node.js worker using eventsource-parser beside a got client: got waits out a 429 on GET /connectors (Retry-After 2 s, plus 120 ms) while the stream, cut after two messages, is resumed from the second',
    pass: ['stream.resume-from-last-read', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      const ids = await readCut(t, a, 2);
      const read = loop(
        sleep,
        () => get(t, a, '/connectors'),
        (_n, r) => r.retryAfterMs + 120,
        3,
      );
      ok('connectors', await read);
      await readStream(t, a, { cursor: lastOf(ids), idleMs: 400 });
    },
  },
  // "resumes ... (last number read)": a batch poller's checkpoint, written to a store its sibling reads.
  {
    does: 'is a Python service of two asyncio tasks sharing one token and one Redis checkpoint: the first polls a batch of two from a burst of four and closes, the second resumes from the checkpoint the first wrote',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const store = checkpointStore();
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 4) });
      store.set(a.tenant, lastOf(ids));
      await sleeper(t)(1_500);
      await readStream(t, a, { cursor: store.get(a.tenant) ?? 0, idleMs: 400 });
    },
  },
  // "the same key with the same content returns the same response again": the create for a message is retried
  // under the key derived from its number.
  {
    does: 'is a Rust consumer on reqwest-eventsource that creates one connection per message under a key built from the message number, and retries the create a 500 hits under the same key after 500 ms plus jitter',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(4601);
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      for (const id of ids)
        ok(
          `create ${id}`,
          await loop(
            sleep,
            () => createFor(t, a, 'rs', id),
            (n) => 500 * 2 ** n + Math.floor(random() * 250),
            3,
          ),
        );
    },
  },
  // "The same interface is also offered under a second main-domain address": one numbering, resumed on either.
  {
    does: 'is a .NET BackgroundService reading the stream on the alternate address with HttpClient, which fails over to the main address when it is cut after two messages and resumes there with Last-Event-ID of the second',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readCut(alternate(t), a, 2);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: lastOf(ids), idleMs: 400 });
    },
  },
  // "resumes without gaps": the pod taking over resumes from the number the dead pod read.
  {
    does: 'is a Kubernetes Deployment whose consumer pod dies after its stream is cut at the third message: the replacement pod, with a token of its own, resumes from the checkpoint the dead pod left in Redis',
    pass: [],
    async run(t) {
      const store = checkpointStore();
      const podA = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      store.set(podA.tenant, lastOf(await readCut(t, podA, 3)));
      await sleeper(t)(20_000);
      const podB = auth(t);
      await readStream(t, podB, { cursor: store.get(podB.tenant) ?? 0, idleMs: 400 });
    },
  },
  // The stream's `retry:` field as the reconnection delay, then "resumes ... by sending Last-Event-ID".
  {
    does: 'is a Swift LDSwiftEventSource consumer that takes the stream’s retry: field as its reconnect delay and, cut after two messages, reconnects after it with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      let retryMs = 1_000;
      const ids = await readStream(t, a, {
        count: 2,
        onRetry: (ms) => (retryMs = ms),
        onOpen: () => publish(t, a.tenant, 2),
      });
      await sleeper(t)(retryMs);
      await readStream(t, a, { cursor: lastOf(ids), idleMs: 400 });
    },
  },
  // "respect the wait time of the response": a restart's 503 Retry-After is longer than `retry:`, so it wins.
  {
    does: 'is a Java consumer on okhttp-eventsource whose stream ends in a server restart: the reconnect meets a 503 with Retry-After, waits the longer of it and the retry: field, and resumes by ?cursor= from the last message',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 4_000, count: 1 });
      let retryMs = 1_000;
      const ids = await readStream(t, a, {
        count: 2,
        onRetry: (ms) => (retryMs = ms),
        onOpen: () => publish(t, a.tenant, 2),
      });
      let refusedMs = -1;
      await readStream(t, a, { cursor: lastOf(ids), asQuery: true, onRefused: (_s, ms) => (refusedMs = ms) });
      if (refusedMs < 0) throw new Error('the restart answered');
      await sleeper(t)(Math.max(retryMs, refusedMs) + 200);
      await readStream(t, a, { cursor: lastOf(ids), asQuery: true, idleMs: 400 });
    },
  },
  // "respect the wait time of the response": creates batched per poll, keyed by message numbers.
  {
    does: 'is a Kafka Connect-style sink task that batches the creates of one poll of four messages, each keyed by its message number, and sends the one refused 429 (Retry-After 1 s) again under its key after 1.3 s',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const ids = await readStream(t, a, { count: 4, onOpen: () => publish(t, a.tenant, 4) });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const answers = await Promise.all(ids.map(async (id) => ({ id, r: await createFor(t, a, 'sink', id) })));
      for (const { id, r } of answers) {
        if (r.status === 200) continue;
        refused('batch', r, 429);
        await sleep(1_300);
        ok(`again ${id}`, await createFor(t, a, 'sink', id));
      }
    },
  },
  // "only a retry with the same key gets the outcome": the create a message asked for, dropped, then replayed.
  {
    does: 'is an Elixir Broadway pipeline fed by the stream whose create for a message is dropped after it was committed; Req retries it under the message’s key after 1 s and gets it replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const id = lastOf(ids);
      const first = await createFor(t, a, 'bw', id);
      if (first.status !== 0) throw new Error(`the drop answered ${first.status}`);
      await sleeper(t)(1_000);
      replayed('again', await createFor(t, a, 'bw', id));
    },
  },
  // "resumes ... (last number read)" after a 429 met on the stream route itself, its wait respected.
  {
    does: 'is a Ruby ld-eventsource client whose reconnect after a cut at the second message is refused 429 (Retry-After 3 s): it waits 3.2 s and resumes with Last-Event-ID of the second',
    pass: ['stream.resume-from-last-read', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readCut(t, a, 2);
      fault(t, { kind: 'rate_limited', route: '/api/public/v1/stream', retryAfterSeconds: 3, count: 1 });
      await sleeper(t)(300);
      let status = 0;
      await readStream(t, a, { cursor: lastOf(ids), onRefused: (s) => (status = s) });
      if (status !== 429) throw new Error(`reconnect answered ${status}`);
      await sleeper(t)(3_200);
      await readStream(t, a, { cursor: lastOf(ids), idleMs: 400 });
    },
  },
  // "Tokens are short-lived and are renewed": renewed near expiry by the reader, resumed with the new one.
  {
    does: 'is a Kotlin Ktor SSE client whose token cache renews five minutes before expiry: the stream, cut after two messages when the 15-minute token has four minutes left, resumes with the renewed token from the second',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t, undefined, 900);
      ok('first read', await api(t, a, 'GET', '/capabilities'));
      await sleeper(t)(660_000);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readCut(t, a, 2);
      const renewed = { ...auth(t, undefined, 900), tenant: a.tenant };
      await sleeper(t)(800);
      await readStream(t, renewed, { cursor: lastOf(ids), idleMs: 400 });
    },
  },
];
