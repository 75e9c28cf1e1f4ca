import { held, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { abortableCreate, grpcRetryBackoff } from './unnamed9-kit.ts';

/**
 * Round 9, clients behind proxies and gateways that retry for them: Envoy hedging a create, a gRPC
 * client behind Envoy's grpc-json transcoder (gRPC's retry policy reads `grpc-retry-pushback-ms`,
 * never Retry-After).
 */

/** Three reads through a 429 (Retry-After: 2) and a 500 each, under gRPC's retry policy (maxAttempts 4). */
async function grpcReads(t: Parameters<UnnamedClient2['run']>[0], pushback: boolean, seed: number) {
  const a = auth(t);
  const sleep = sleeper(t);
  const wait = grpcRetryBackoff({ initialMs: 500, multiplier: 2, maxMs: 5_000, random: seeded(seed) });
  for (const [route, path] of READS.slice(0, 3)) {
    fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
    fault(t, { kind: 'internal', route, count: 1 });
    // The transcoder maps 429 to RESOURCE_EXHAUSTED and 500 to INTERNAL, both in retryableStatusCodes;
    // with `pushback` it also turns Retry-After into grpc-retry-pushback-ms.
    ok(
      path,
      await retrying(
        sleep,
        () => get(t, a, path),
        (n, r) => wait(n, pushback && r.status === 429 ? r.retryAfterMs : undefined),
        { ignoreRetryAfter: true },
      ),
    );
    await sleep(3_000);
  }
}

export const GATEWAYS_WELL_BEHAVED_9: UnnamedClient2[] = [
  // "with the same Idempotency-Key it is still a retry": Envoy's hedge_on_per_try_timeout sends a
  // second copy of the buffered create (same headers, same key) when the first outlives its 2 s
  // per_try_timeout, takes the copy that answers, and resets the other.
  {
    does: 'sits behind Envoy with per_try_timeout 2 s and hedge_on_per_try_timeout: a create held 4 s is raced by a second copy with the same key, which answers, and the first is reset',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 4_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hedged Harbour Grill' };
      const before = held(t);
      const first = abortableCreate(t, a, body, 'envoy-hedge-31c0a7');
      await untilHeld(t, before);
      await sleep(2_000);
      ok('the hedge', await api(t, a, 'POST', '/connections', { body, key: 'envoy-hedge-31c0a7' }));
      first.abort();
      await first.reply;
      // The app goes on with other work past the held copy's 4 s.
      await sleep(3_000);
      ok('a read', await get(t, a, '/connections'));
    },
  },
  // "respect the wait time of the response": the transcoder's filter writes a 429's Retry-After into
  // grpc-retry-pushback-ms, which gRPC's retry policy waits exactly.
  {
    does: 'is a gRPC client behind an Envoy grpc-json transcoder that maps a 429’s Retry-After to grpc-retry-pushback-ms; its retry policy (maxAttempts 4, initialBackoff 0.5 s, multiplier 2) waits the pushback, then full jitter after a 500, over three reads',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    run: (t) => grpcReads(t, true, 941),
  },
];

export const GATEWAYS_MISBEHAVING_9: FaultyClient[] = [
  // The same sentence: without the pushback mapping gRPC never sees Retry-After and draws
  // random(0, 0.5 s) for the first retry.
  {
    does: 'is a gRPC client behind an Envoy grpc-json transcoder that maps 429 to RESOURCE_EXHAUSTED but drops Retry-After; its retry policy (initialBackoff 0.5 s, full jitter) retries three reads’ 429s (Retry-After: 2) within 0.5 s',
    fails: ['retry.respects-retry-after'],
    run: (t) => grpcReads(t, false, 942),
  },
];
