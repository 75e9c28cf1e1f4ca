import { auth, CONNECTION, fault, publish, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { contentKey, grpcBackoff, nodeRetry, otlpExporter, readTyped, temporalActivity } from './unnamed29-kit.ts';

/**
 * Round 29, well-behaved clients of stacks no earlier round used. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_29: UnnamedClient2[] = [
  // "respect the wait time of the response": the OTLP exporter's retry waits the greater of its backoff
  // and the throttle the answer gave; the export request (and its key) is built once.
  {
    does: 'is a Go client on the OTLP exporter’s retry settings (5 s x1.5 ±50 %, the greater of backoff and Retry-After) creating through a 429 (Retry-After 8 s) and a 500 under one key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 8, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Exported Empanadas' };
      const wait = otlpExporter(seeded(2901));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'otlp-9e0b71c4'), wait, 3));
    },
  },
  // "growing intervals and slight random spread": promise-retry with randomize: true.
  {
    does: 'is a promise-retry client ({ retries: 3, randomize: true }: 1 s x2^n x [1, 2)), three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const schedule = nodeRetry({ randomize: true }, seeded(2902));
      await readsOn(t, auth(t), sleeper(t), { schedule, failures: 2, max: 3 });
    },
  },
  // "growing intervals": grpc-go's DefaultConfig grows by 1.6, its first retry undrawn (BaseDelay exactly).
  {
    does: 'is a Go client on grpc-go’s backoff.DefaultConfig (1 s, x1.6, ±20 %, the first retry exactly 1 s), three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: grpcBackoff(seeded(2903)), failures: 3, max: 3, from: 1 });
    },
  },
  // "respect the wait time of the response": @slack/web-api pauses its whole request queue for a 429's
  // Retry-After, then sends the refused call first and the queued ones after it.
  {
    does: 'pauses its whole request queue (p-queue, as @slack/web-api does) for a 429’s Retry-After (3 s), then sends the refused read and the two queued behind it',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const first = await get(t, a, '/providers');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(first.retryAfterMs);
      for (const path of ['/providers', '/connectors', '/capabilities']) ok(path, await get(t, a, path));
    },
  },
  // "the same key with the same content": a key hashed from method, path and the sorted body is the same
  // on every attempt of one request, so the retry after a dropped connection gets the committed outcome.
  {
    does: 'derives its key from a hash of method, path and sorted body, and retries a create whose connection dropped after the commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hashed Hummus' };
      const key = contentKey('POST', '/connections', body);
      const wait = nodeRetry({ randomize: true }, seeded(2905));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), wait, 3));
    },
  },
  // "Idempotency keys reused on retries": a Temporal activity keys its create with the workflow id and
  // activity id (stable across the activity's attempts); MaximumAttempts 4. One sequence: its spread
  // cannot be seen, and is not judged.
  {
    does: 'is a Temporal activity (RetryPolicy 1 s x2, MaximumAttempts 4) keying its create with workflow id and activity id, through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Temporal Tapas' };
      const key = 'onboard-venue-41:activity-2';
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), temporalActivity, 3));
    },
  },
  // "(last number read)": a consumer that handles order.created only still moves its cursor on every
  // numbered message it reads (the ignored order.paid included), and resumes from that.
  {
    does: 'handles only order.created but moves its cursor on every numbered message (order.paid included), resuming after a cut from the last one',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const seen = await readTyped(t, a, { onOpen: () => publish(t, a.tenant, 2) });
      const last = seen.at(-1);
      if (seen.length !== 2 || last?.event !== 'order.paid') throw new Error(`read ${JSON.stringify(seen)}`);
      await sleeper(t)(1_000);
      await readTyped(t, a, { cursor: last.id, idleMs: 500, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
];
