import { api, auth, CONNECTION, fault, publish, type Reply, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { warmSocket } from './unnamed25-socket.ts';
import { effectJittered } from './unnamed26-kit.ts';

/**
 * Round 26 probes at the transport and identity edges of retry recognition, violations that look correct:
 * immediate retries on connections opened while the failed call was in flight, a key carried over to another
 * route, a 400 re-sent with its JSON re-ordered, a cursor kept from the previous connection, an expired
 * token kept by a clock behind, a webhook registration retried under a new key, failover ping-pong.
 */
export const PROBES_MISBEHAVING_26: FaultyClient[] = [
  // "Clients retry with growing intervals": a client pre-connects a socket for its next attempt while each
  // attempt is in flight (a speculative connect) and retries on it the moment a 500 arrives, three times.
  {
    does: 'pre-connects a socket while each attempt is in flight and retries on it the moment a 500 arrives, three immediate retries of one read',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      let next = await warmSocket(t);
      let r: Reply = await get(t, a, '/capabilities');
      for (let n = 0; n < 3 && r.status >= 500; n++) {
        const socket = next;
        next = await warmSocket(t);
        r = await socket.send(a, 'GET', '/capabilities');
      }
      next.close();
      ok('read', r);
    },
  },
  // "use a new key for each new operation": a client carries the key of its connection create over to the
  // webhook registration that belongs to the same onboarding step (another route, another operation).
  {
    does: 'registers a webhook under the Idempotency-Key it just used to create a connection (one key per onboarding step, two operations)',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'onboarding-step-3-2a7c55e1';
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Onboarding Orzo' }, key));
      await sleeper(t)(800);
      const body = { url: 'http://127.0.0.1:9/hooks/onboarding', events: ['order.created'] };
      await api(t, a, 'POST', '/webhooks', { body, key });
    },
  },
  // "retry only after rate_limited and internal": a capability check refused 400 is "fixed" by a serialiser
  // that sorts keys and pads the JSON: the same content, the same 400, sent twice more.
  {
    does: 'sends a capability check refused 400 again twice, re-serialised with sorted keys and spaces (the same content)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'o' };
      const raws = [JSON.stringify(body), JSON.stringify({ capability: 'o', connectorId: body.connectorId }, null, 1)];
      const r = await loop(
        sleeper(t),
        (n) => api(t, a, 'POST', '/capabilities', { raw: raws[n % 2] }),
        effectJittered(seeded(2643)),
        2,
        (x) => x.status === 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "resumes without gaps by sending ... (last number read)": the cursor variable is updated only when the
  // consumer reconnects, so after the second cut it resumes from the first cut's number.
  {
    does: 'keeps the cursor from the previous connection: cut at 3, resumes from 3 and reads 4-6, cut again, resumes from 3',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 2 });
      const first = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      if (first.at(-1) !== 3) throw new Error(`read ${first.join()}`);
      const second = await readStream(t, a, { cursor: 3, onOpen: () => publish(t, a.tenant, 3) });
      if (second.at(-1) !== 6) throw new Error(`read ${second.join()}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: 3, idleMs: 600 });
    },
  },
  // "Tokens are short-lived and are renewed": a host clock 15 s behind keeps a 30 s token "valid" past its
  // expiry; after a 401 on one read it sends the same token with the next read 10 s later.
  {
    does: 'has a clock 15 s behind: sends a 30 s token after expiry, answered 401, and sends it again with another read 10 s later',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 30);
      ok('fresh', await get(t, a, '/providers'));
      await sleeper(t)(35_000);
      const first = await get(t, a, '/connectors');
      if (first.status !== 401) throw new Error(`answered ${first.status}`);
      await sleeper(t)(10_000);
      await get(t, a, '/capabilities');
    },
  },
  // "Idempotency keys reused on retries": webhook registration taken for "not a create", retried after a 500
  // under a new key (the SDK stamps one per call).
  {
    does: 'retries a webhook registration refused 500 under a new key stamped per call',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createWebhook', count: 1 });
      const body = { url: 'http://127.0.0.1:9/hooks/stamped', events: ['order.created'] };
      ok(
        'hook',
        await loop(
          sleeper(t),
          (n) => api(t, a, 'POST', '/webhooks', { body, key: `hook-call-${n}-0d93e1f4` }),
          effectJittered(seeded(2645)),
          3,
        ),
      );
    },
  },
  // "Clients retry with growing intervals": a failover list retried round-robin with no wait: main, second,
  // main, second address, each the moment the 500 arrives.
  {
    does: 'fails over round-robin between the two addresses with no wait: four attempts of one read through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          (n) => get(n % 2 ? alternate(t) : t, a, '/connections'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "respect the wait time of the response": an SDK appends its (empty) extra parameters to the URL on a
  // retry, so the retry of a 429 (Retry-After 3 s), sent after 500 ms, asks ?category=pos& (the same query).
  {
    does: 'retries a read refused 429 (Retry-After 3 s) after 500 ms to the URL with a trailing & an SDK appends on retries (?category=pos&)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const first = await get(t, a, '/providers?category=pos');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(500);
      ok('again', await get(t, a, '/providers?category=pos&'));
    },
  },
  // "respect the wait time of the response": a token cache cleared on any error renews the token right after
  // a 429 (Retry-After 3 s); the retry, 1 s later, carries the new token.
  {
    does: 'renews its token right after a 429 (Retry-After 3 s) and retries 1 s later with the new token, on two reads',
    // Two duties broken: the 429's wait, and a 1 h token replaced twice with most of its life left.
    fails: ['auth.token-reused', 'retry.respects-retry-after'],
    async run(t) {
      let a = auth(t);
      for (const [route, path] of [
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 3, count: 1 });
        const first = await get(t, a, path);
        if (first.status !== 429) throw new Error(`answered ${first.status}`);
        a = auth(t);
        await sleeper(t)(1_000);
        ok(path, await get(t, a, path));
        await sleeper(t)(5_000);
      }
    },
  },
  // "respect the wait time of the response": a 429 (Retry-After 3 s) from the second address is retried
  // after 500 ms at the main one (a failover list that takes a 429 for an unhealthy host), on two reads.
  {
    does: 'takes a 429 (Retry-After 3 s) from the second address for an unhealthy host and retries at the main address after 500 ms, on two reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 3, count: 1 });
        const first = await get(alternate(t), a, path);
        if (first.status !== 429) throw new Error(`answered ${first.status}`);
        await sleeper(t)(500);
        ok(path, await get(t, a, path));
        await sleeper(t)(5_000);
      }
    },
  },
];
