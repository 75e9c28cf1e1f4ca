import { api, auth, CONNECTION, fault, type Reply } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { bazelBackoff, effectJittered, quartzReschedule, tanstackDelay } from './unnamed26-kit.ts';

/**
 * Round 26, misbehaving clients whose violation looks correct. Each must fail exactly its rule.
 */
export const MISBEHAVING_26: FaultyClient[] = [
  // "Clients retry with growing intervals": a Quartz job throwing `JobExecutionException(e, true)`
  // (refireImmediately) is fired again at once after each 500.
  {
    does: 'is a Quartz job throwing JobExecutionException with refireImmediately on each 500, three immediate refires of one read',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "retry only after rate_limited and internal": an HttpRequestRetry-style plugin with `retryIf { !status
  // .isSuccess() }` and `modifyRequest` adding X-Retry-Count: a 400 sent again twice, only a header changed.
  {
    does: 'retries every non-2xx, adding an X-Retry-Count header in modifyRequest: a capability check refused 400 sent twice more, only the header changed',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'x', capability: 'orders.read' };
      const r = await loop(
        sleeper(t),
        (n) => api(t, a, 'POST', '/capabilities', { body, headers: { 'x-retry-count': String(n) } }),
        effectJittered(seeded(2631)),
        2,
        (x) => x.status !== 200,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "Idempotency keys reused on retries": an nginx `map` in front of the client lower-cases header values
  // on its retry path, so the retry of a create refused 500 carries the key in lower case: another key.
  {
    does: 'retries a create refused 500 through a proxy path that lower-cases the Idempotency-Key value (Conn-7F3A… → conn-7f3a…)',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Lowercase Laksa' };
      const key = 'Conn-7F3A9B2C-Op';
      ok(
        'create',
        await loop(
          sleeper(t),
          (n) => createWith(t, a, body, n ? key.toLowerCase() : key),
          quartzReschedule(seeded(2632)),
          3,
        ),
      );
    },
  },
  // "The same key with different content yields idempotency_conflict": the retry rebuilds capabilities from a
  // HashSet, so the array comes in another order under the same key.
  {
    does: 'retries a create refused 500 under its key, the capabilities rebuilt from a hash set in another order',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hashset Hotpot' };
      const first = await createWith(t, a, body, 'hashset-op-61c0de2a');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_200);
      const again = { ...body, capabilities: [...body.capabilities].reverse() };
      await createWith(t, a, again, 'hashset-op-61c0de2a');
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a client clears its token cache on every 5xx
  // ("maybe the token was bad") and fetches a new 1 h token for each retry.
  {
    does: 'clears its token cache on every 5xx and fetches a new 1 h token for each retry, three reads each through two 500s',
    fails: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 3_600);
      const wait = tanstackDelay(seeded(2634));
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        const send = async () => {
          const r = await get(t, a, path);
          if (r.status >= 500) a = auth(t, undefined, 3_600);
          return r;
        };
        ok(path, await loop(sleeper(t), send, wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "respect the wait time of the response": a loop honours Retry-After on the first 429 of a read only
  // (`if (attempt === 0)`); the second 429 (Retry-After 2 s) gets its own 500 ms.
  {
    does: 'honours Retry-After only on the first 429 of a read; the second 429 (Retry-After 2 s) gets its own 500 ms, on two reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnections', '/connections'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 2 });
        const wait = (n: number, r: Reply) => (n === 0 ? r.retryAfterMs : 500 * 2 ** n);
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "A sample client makes up to 4 attempts": Bazel's default --remote_retries=5 is six attempts of one read.
  {
    does: 'is a Bazel remote-cache Retrier left at --remote_retries=5: six attempts of each of three reads through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: bazelBackoff(seeded(2636)), failures: 5, max: 5 });
    },
  },
  // "retry only after rate_limited and internal": a job reading one connection by id (a path the interface
  // does not show) gets 404 and tries the path spelt with a trailing slash and with a doubled slash: the
  // same path as the service routes it, the same 404, repeated.
  {
    does: 'reads /connections/<id>, answered 404, and tries it again as /connections/<id>/ and //connections/<id> after growing waits',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const id = 'conn_missing_7731';
      const paths = [`/connections/${id}`, `/connections/${id}/`, `//connections/${id}`];
      const r = await loop(
        sleeper(t),
        (n) => get(t, a, paths[n] ?? '/'),
        quartzReschedule(seeded(2637)),
        2,
        (x) => x.status === 404,
      );
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
];
