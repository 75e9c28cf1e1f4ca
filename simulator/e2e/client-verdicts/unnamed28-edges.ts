import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants, guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { dbosStep, langchainJitter, urqlDelay } from './unnamed28-kit.ts';

/**
 * Round 28 edges: waits the server set twice in a row, a chain re-run that repeats a successful read, a
 * key kept through a 500 but drawn anew after a dropped connection, a Retry-After read once per operation,
 * a step backoff that never looks at the 429, urql's default retry on any non-GraphQL answer, and an
 * integrator's one client serving two tenants: an expired token sent on to the other tenant, a token per
 * call alternating tenants (the rules judge both per tenant and pass them: wrong verdicts, left failing).
 */
export const EDGES_WELL_BEHAVED_28: UnnamedClient2[] = [
  // "respect the wait time of the response": two 429s asking 2 s each, both waited exactly (the waits are
  // the server's, so their being equal is no fault of growth).
  {
    does: 'is an imroc/req v3 client creating through two 429s (Retry-After 2 s each), waiting exactly the Retry-After both times, under one key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Twice Throttled Tteok' };
      const wait = (_n: number, r: { retryAfterMs: number }) => r.retryAfterMs;
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'req-v3-twice-4b7e'), wait, 3));
    },
  },
  // "A call repeated after a success is polling": LangChain's with_retry re-runs the whole chain, so its
  // lookup (which succeeded) goes out again before each retry of the create, whose key is in the input.
  {
    does: 'is a LangChain chain (lookup then create) under with_retry: each re-run repeats the successful lookup and retries the create under the key from its input, through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Chained Chaat' };
      const chain = async () => {
        ok('lookup', await get(t, a, '/connectors'));
        return createWith(t, a, body, 'lc-input-key-0e91d3');
      };
      ok('create', await loop(sleeper(t), chain, langchainJitter(seeded(2822)), 3));
    },
  },
  // "the same key with the same content": urql's fetchOptions carry the key for the operation, so the
  // retryExchange's re-send after a dropped connection keeps it and gets the committed outcome.
  {
    does: 'is an urql mutation whose key rides in its fetchOptions, retried by retryExchange after a dropped connection',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Mutated Mandu' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'urql-op-7c3a'), urqlDelay(seeded(2823)), 1),
      );
    },
  },
];

export const EDGES_MISBEHAVING_28: (FaultyClient & { options?: SandboxOptions })[] = [
  // "Idempotency keys reused on retries": the SDK keeps its request object through a 500 but rebuilds it
  // (and its key) after a transport error, so the third attempt carries a new key.
  {
    does: 'keeps its key through a 500 but rebuilds the request (a new key) after the dropped connection of the second attempt',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Rebuilt Rösti' };
      const keys = ['sdk-req-a1', 'sdk-req-a1', 'sdk-req-b2'];
      const send = (n: number) => createWith(t, a, body, `${keys[n] ?? 'sdk-req-x'}-5d0c`);
      ok('create', await loop(sleeper(t), send, guidanceWait(seeded(2831)), 3));
    },
  },
  // "respect the wait time of the response": Retry-After is read from the first 429 of the operation and
  // kept; the second 429 asks 3 s and gets the first one's 1 s (plus the client's draw).
  {
    does: 'reads Retry-After once per operation: the second 429 of a read asks 3 s and is waited as the first one’s 1 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      let first = 0;
      const own = guidanceWait(seeded(2832));
      const wait = (n: number, r: { retryAfterMs: number }) => {
        first ||= r.retryAfterMs;
        return Math.max(first, own(n));
      };
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
  // "respect the wait time of the response": a DBOS step's backoff (1 s, 2 s) never sees the 429 it
  // retries, so a Retry-After of 3 s is cut short twice.
  {
    does: 'is a DBOS step (interval 1 s, backoff 2) retrying a create refused 429 (Retry-After 3 s) twice, under the workflow’s key',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Stepped Samosa' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'dbos-wf-429-8e2b'), dbosStep, 2));
    },
  },
  // "retry only after rate_limited and internal": urql's default retryIf is `err.networkError`, and an
  // answer without a GraphQL body (a REST 400) is a networkError to urql.
  {
    does: 'is urql’s retryExchange on its default retryIf (networkError), retrying a capability check refused 400 once',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'q', capability: 'orders.read' };
      const r = await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        urqlDelay(seeded(2834)),
        1,
        (x) => x.status === 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "remedy: request a new access token": an integrator's one token serves two tenants; refused 401 as
  // expired for the first, it is sent again 10 s later for the second before the cache renews it.
  {
    does: 'is an integrator whose one token serves two tenants: refused 401 (expired) for the first, it is sent again 10 s later for the second',
    fails: ['auth.renewed-after-expiry'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const { token } = t.sandbox.issueToken('network-integrator', 60);
      const [first, second] = [
        { token, tenant: 'harbour-kitchens' },
        { token, tenant: 'alpine-bistro' },
      ];
      ok('first', await get(t, first, '/connections'));
      ok('second', await get(t, second, '/connections'));
      await sleeper(t)(70_000);
      const refused = await get(t, first, '/connectors');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(10_000);
      const again = await get(t, second, '/providers');
      if (again.status !== 401) throw new Error(`answered ${again.status}`);
    },
  },
  // "Tokens are short-lived and are renewed": a token per call (3,600 s each, nearly all left), the calls
  // alternating between the integrator's two tenants every 8 s.
  {
    does: 'is an integrator fetching a new token for every call, its calls alternating between two tenants every 8 s',
    fails: ['auth.token-reused'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      for (let i = 0; i < 8; i++) {
        const { token } = t.sandbox.issueToken('network-integrator', 3_600);
        ok('read', await get(t, { token, tenant: i % 2 ? 'alpine-bistro' : 'harbour-kitchens' }, '/connections'));
        await sleeper(t)(8_000);
      }
    },
  },
];
