import { held, sleepOn, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';

/**
 * Round 11, more misbehaving clients at the rules' bounds (webhooks, two addresses). A jQuery-style
 * cache-buster (`_=<ms>` on every GET, which would make each retry another URL) cannot be tried: the
 * service refuses an unknown query parameter with 400.
 */
export const PROBES_MORE_11: FaultyClient[] = [
  // "Modifying calls are repeat-safe through idempotency keys": a webhook registration whose answer was
  // lost is sent again under a new key, registering a second receiver (and a second signing key).
  {
    does: 'registers a webhook whose answer is dropped and sends the registration again 1 s later under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: '/api/public/v1/webhooks', failWith: 'drop', count: 1 });
      const body = { url: 'http://127.0.0.1:9/hooks/orders', events: ['order.created', 'order.paid'] };
      const first = await api(t, a, 'POST', '/webhooks', { body, key: 'hook-register-0001' });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      ok('again', await api(t, a, 'POST', '/webhooks', { body, key: 'hook-register-0002' }));
    },
  },
  // "respect the wait time of the response": a read refused 429 (Retry-After: 3) at the main address is
  // sent 300 ms later to the second address, as if the limit were per address.
  {
    does: 'sends a read refused 429 (Retry-After: 3) at the main address to the second address 300 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const r = await get(t, a, '/connectors');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(300);
      ok('other address', await get(alternate(t), a, '/connectors'));
    },
  },
  // "respect the wait time of the response": a create refused 429 (Retry-After: 3) is put back on the
  // queue and a sibling pod (its own token) sends it with its key 400 ms later: the operation's retry,
  // whoever sends it, is owed the wait.
  {
    does: 'requeues a create refused 429 (Retry-After: 3); a sibling pod with its own token sends it with the same key 400 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const [pa, pb] = [auth(t), auth(t)];
      const body = { ...CONNECTION, scopeLabel: 'Requeued Rotisserie' };
      ok('a read', await get(t, pa, '/providers?category=pod-a'));
      ok('b read', await get(t, pb, '/providers?category=pod-b'));
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const r = await api(t, pa, 'POST', '/connections', { body, key: 'requeued-create-0001' });
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(400);
      ok('sibling', await api(t, pb, 'POST', '/connections', { body, key: 'requeued-create-0001' }));
      ok('a read again', await get(t, pa, '/providers?category=pod-a-2'));
    },
  },
];

/** Round 11, an ambiguous schedule: backoff capped early. */
export const AMBIGUOUS_MORE_11: AmbiguousClient8[] = [
  {
    does: 'caps its backoff at 1 s (waits 500 ms, then 1 s, 1 s, each plus a draw up to 250 ms), four reads each through three 500s',
    why: '"Clients retry with growing intervals": a cap (maxBackoff) is near-universal, and the sample client’s 4 attempts leave three waits; with a cap of 1 s the last two do not grow, which the contract neither allows nor forbids; the rules pass it (a jittered client is failed only when more than half its pairs are equal)',
    judged: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1171);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(
          path,
          await loop(
            sleep,
            () => get(t, a, path),
            (n) => Math.min(500 * 2 ** n, 1_000) + Math.floor(random() * 250),
            3,
          ),
        );
        await sleep(5_000);
      }
    },
  },
];

/** Round 11, cases probing how far one key's attempts reach: a later run, and a redelivery to a sibling. */
export const AMBIGUOUS_KEYS_11: AmbiguousClient8[] = [
  {
    does: 'makes the guidance’s four attempts of a create under its key, all 500, and a person presses “retry” three hours later, sending it once more under the same key (valid 24 h)',
    why: '"A sample client makes up to 4 attempts": the fifth attempt is a person’s decision in a later run, and reusing the key is what "repeat-safe through idempotency keys" asks for; the contract does not say whether a later run counts toward the sample’s four; the rules count it as a new run (Hangfire’s seven attempts over 25 minutes under one key do fail)',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 14_400);
      const random = seeded(1181);
      const body = { ...CONNECTION, scopeLabel: 'Morning After Bakery' };
      const key = 'manual-retry-create-0001';
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const auto = await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key }),
        (n) => 500 * 2 ** n + Math.floor(random() * 250),
        3,
      );
      if (auto.status !== 500) throw new Error(`answered ${auto.status}`);
      await sleepOn(t, 3 * 3_600_000);
      ok('manual', await api(t, a, 'POST', '/connections', { body, key }));
    },
  },
  {
    does: 'has a queue redeliver a create’s message to a second pod (its own token) 2 s into the first pod’s create, held 5 s; the second pod sends it with the same key while the first still awaits its answer',
    why: '"Modifying calls are repeat-safe through idempotency keys": the same key from two processes at once is what keys are for (at-least-once delivery), but the second copy is sent while the first is still awaited',
    judged: [],
    async run(t) {
      const [pa, pb] = [auth(t), auth(t)];
      const body = { ...CONNECTION, scopeLabel: 'Redelivered Ramen' };
      ok('a read', await get(t, pa, '/providers?category=pod-a'));
      ok('b read', await get(t, pb, '/providers?category=pod-b'));
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 5_000, count: 1 });
      const before = held(t);
      const first = api(t, pa, 'POST', '/connections', { body, key: 'queue-msg-7781' });
      await untilHeld(t, before);
      await sleepOn(t, 2_000);
      const second = await api(t, pb, 'POST', '/connections', { body, key: 'queue-msg-7781' });
      await sleepOn(t, 3_100);
      const a = await first;
      ok('b read again', await get(t, pb, '/providers?category=pod-b-2'));
      ok('a read again', await get(t, pa, '/providers?category=pod-a-2'));
      if (a.status !== 200) throw new Error(`first answered ${a.status}, second ${second.status}`);
      return { secondStatus: second.status };
    },
  },
  {
    does: 'is a browser behind an enterprise proxy that strips Origin: its call carries Authorization, a Mozilla User-Agent and Sec-Fetch-Mode: cors, Sec-Fetch-Site: cross-site, but no Origin',
    why: '"never sent from a browser": the Sec-Fetch-* headers are set only by browsers; the rule recognised a browser by Origin (or a preflight) only, and since session 20 by the Fetch Metadata only a browser sends too (Sec-Fetch-Site, Sec-Fetch-Dest, a navigation; not Sec-Fetch-Mode alone, which Node\'s fetch sends)',
    judged: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', {
        headers: {
          'user-agent':
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
          'sec-fetch-mode': 'cors',
          'sec-fetch-site': 'cross-site',
          'sec-fetch-dest': 'empty',
        },
      });
    },
  },
];
