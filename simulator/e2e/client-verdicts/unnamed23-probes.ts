import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { againStrategy, httrRetry, machineryFibonacci, saloonExponential } from './unnamed23-kit.ts';

/**
 * Round 23 probes at the edges of the rules: Retry-After honoured only once or by a hair less, a key lost on
 * a rebuilt request, give-ups and dropped connections retried under the key, a 429 on a create.
 */
export const PROBES_WELL_BEHAVED_23: UnnamedClient2[] = [
  // "the same key with the same content": a Machinery task whose HTTP client gives up after 3 s on a held
  // create, then the task's retry (1 s) sends it again under the task's key.
  {
    does: 'is a Go Machinery task giving up on a held create after 3 s and retrying it 1 s later under the task’s key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Machinery Moules' };
      const key = 'machinery-task-0b7e41c9';
      const first = await api(t, a, 'POST', '/connections', { body, key, timeoutMs: 3_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(machineryFibonacci(0));
      replayed('retry', await createWith(t, a, body, key));
    },
  },
  // "the same key with the same content": Saloon's retry re-sends the same PendingRequest, headers included,
  // after the connection dropped once the create had committed.
  {
    does: 'is a PHP Saloon connector re-sending a create under its key after the connection dropped past the commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Saloon Sashimi' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'saloon-create-44c1e2a0'), saloonExponential, 2),
      );
    },
  },
  // "respect the wait time of the response": an R script sleeping the larger of a 429's Retry-After and
  // httr's own draw, plus that draw again as spread, on a keyed create refused 429 twice.
  {
    does: 'is an R script retrying a keyed create refused 429 (Retry-After 2) twice, sleeping Retry-After plus an httr-style draw, under its key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 2 });
      const draw = httrRetry(seeded(2381));
      const body = { ...CONNECTION, scopeLabel: 'Httr Hotpot' };
      const wait = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs + draw(n);
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'r-httr-create-5521'), wait, 3));
    },
  },
];

export const PROBES_MISBEHAVING_23: FaultyClient[] = [
  // "respect the wait time of the response": an R script sleeping `retry_after - 0.01` (a hand-rolled
  // "avoid oversleeping" margin): 1.99 s after Retry-After 2.
  {
    does: 'is an R script sleeping Retry-After minus 10 ms (1.99 s after Retry-After 2) before retrying a read',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (_n, r) => r.retryAfterMs - 10,
          3,
        ),
      );
    },
  },
  // "respect the wait time of the response": a Clojure `again` callback that reads Retry-After on the first
  // 429 only; the second 429 of the same read gets the strategy's own draw (0.5 to 1.5 s).
  {
    does: 'is a Clojure service whose again callback honours Retry-After (3 s) on the first 429 only, retrying the second after its own draw',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 2 });
      const own = againStrategy(seeded(2392));
      const wait = (n: number, r: { status: number; json: unknown; retryAfterMs: number }) =>
        n === 0 ? r.retryAfterMs : own(n, { ...r, retryAfterMs: 0 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
  // "the same key with the same content": a tower Policy whose clone_request rebuilds the request from
  // method, URI and body only, so the retry of a create whose connection dropped goes without its key.
  {
    does: 'is a Rust tower Policy whose clone_request rebuilds the create from method, URI and body, retrying a dropped create without its key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Tower Tagine' };
      const first = await createWith(t, a, body, 'tower-create-77e0c3');
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(700);
      const retry = await api(t, a, 'POST', '/connections', { body });
      if (retry.status !== 428) throw new Error(`retry answered ${retry.status}`);
    },
  },
];
