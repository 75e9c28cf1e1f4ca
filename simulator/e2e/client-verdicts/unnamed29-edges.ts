import type { Target } from '../harness.ts';
import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 29 edges of the polling exemption. A read polled at a cadence kept through failures is polling,
 * and creates at such a cadence, each under a key of its own, are a series of new operations. One earlier
 * creation shows no cadence (its only gap is the one to the failure): a form submitted again a second after a
 * creation and retried under yet another key is a retry (round 29's wrong verdict, fixed in polling.ts). The
 * same clients without that earlier success are the controls. (The read after one success is ambiguous:
 * unnamed29-ambiguous.ts.)
 */

/** Spring Retry's `@Retryable` defaults (maxAttempts 3, `@Backoff` delay 1 s, fixed) on a read refused 500 twice. */
export async function springRetryable(t: Target, priorMs?: number) {
  const a = auth(t);
  if (priorMs !== undefined) {
    ok('page render', await get(t, a, '/connections'));
    await sleeper(t)(priorMs);
  }
  fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
  ok(
    'panel',
    await loop(
      sleeper(t),
      () => get(t, a, '/connections'),
      () => 1_000,
      2,
    ),
  );
}

/**
 * A form submitted twice a second apart (a key per submission: two operations), the second refused 500
 * and re-sent a second later by an interceptor that stamps a new key on every request.
 */
async function doubleSubmit(t: Target, first: boolean) {
  const a = auth(t);
  const body = { ...CONNECTION, scopeLabel: 'Double Dumpling' };
  if (first) {
    ok('first submit', await createWith(t, a, body, 'submit-7f1c-0001'));
    await sleeper(t)(1_000);
  }
  fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
  const keys = ['submit-7f1c-0002', 'submit-7f1c-0003'];
  ok(
    'second submit',
    await loop(
      sleeper(t),
      (n) => createWith(t, a, body, keys[n] ?? 'x-extra-key'),
      () => 1_000,
      1,
    ),
  );
}

export const EDGES_MISBEHAVING_29: FaultyClient[] = [
  // "Clients retry with growing intervals": 1 s and 1 s, with no earlier read (the same client after one
  // earlier read, a second before, is pinned as ambiguous: it has the shape of a poller keeping its cadence).
  {
    does: 'retries a read through two 500s on Spring @Retryable defaults (fixed 1 s), with no earlier read (control)',
    fails: ['retry.growing-waits'],
    run: (t) => springRetryable(t),
  },
  // "the same key with the same content": the first submission is its own operation (its own key), but
  // the second's retry after a 500 under a new key is a retry, not a third operation of a series.
  {
    does: 'creates a connection, a second later submits the same form again under a new key (refused 500) and retries that under yet another key',
    fails: ['retry.same-key-and-content'],
    run: (t) => doubleSubmit(t, true),
  },
  {
    does: 'submits a create (refused 500) and retries it a second later under a new key, with no earlier create (control)',
    fails: ['retry.same-key-and-content'],
    run: (t) => doubleSubmit(t, false),
  },
];
