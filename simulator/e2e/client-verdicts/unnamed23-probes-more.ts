import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { saloonExponential, towerBackoff } from './unnamed23-kit.ts';

/** Round 23, more probes: Retry-After slept exactly in every operation, keys on capability checks, polling through a 429. */
export const PROBES_MORE_WELL_BEHAVED_23: UnnamedClient2[] = [
  // "respect the wait time of the response": a Monix loop sleeping each 429's Retry-After (1 s) exactly, in
  // four reads: four equal waits, all set by the server, none of the client's own to spread.
  {
    does: 'is a Scala Monix loop sleeping Retry-After (1 s) exactly before each of four reads’ single retry',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const reads = [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ] as const;
      for (const [route, path] of reads) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 1, count: 1 });
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            (_n, r) => r.retryAfterMs,
            2,
          ),
        );
        await sleeper(t)(4_000);
      }
    },
  },
  // "retry only after rate_limited and internal": a Saloon connector whose middleware stamps a fresh
  // Idempotency-Key on every POST, a capability check included, retried after a 500 (a check changes
  // nothing, so its key means nothing).
  {
    does: 'is a PHP Saloon connector stamping a fresh Idempotency-Key on every POST, retrying a capability check after a 500 under a new key',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 1 });
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      const keys = ['saloon-chk-1a2b3c4d', 'saloon-chk-5e6f7a8b', 'saloon-chk-9c0d1e2f'];
      const send = (n: number) => api(t, a, 'POST', '/capabilities', { body, key: keys[n] ?? `saloon-chk-${n}x` });
      ok('check', await loop(sleeper(t), send, saloonExponential, 2));
    },
  },
];

export const PROBES_MORE_MISBEHAVING_23: FaultyClient[] = [
  // "respect the wait time of the response": a dashboard poller reading connections every 5 s keeps its
  // cadence through a 429 that said Retry-After 12.
  // "the same key with the same content": a tower service whose key layer makes a key per call, the retry
  // of a create refused 429 going under a new key after the Retry-After.
  {
    does: 'is a Rust tower stack whose key layer sits inside the retry layer, retrying a create refused 429 (Retry-After 2) under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Tower Tempura' };
      const own = towerBackoff(seeded(2395));
      const keys = ['tower-inner-0c1d2e3f', 'tower-inner-4a5b6c7d'];
      const wait = (n: number, r: { retryAfterMs: number }) => Math.max(r.retryAfterMs, own(n));
      ok('create', await loop(sleeper(t), (n) => createWith(t, a, body, keys[n] ?? `tower-inner-${n}x`), wait, 2));
    },
  },
  // "use a new key for each new operation": an arq job using its job id as the key of both its operations,
  // the connection create and then the webhook registration; the service answers idempotency_conflict.
  {
    does: 'is an arq job using one key (its job id) for the connection create and then the webhook registration (answered idempotency_conflict)',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'arq-job-1c9e7b2d44f0';
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Arq Ackee' }, key));
      await sleeper(t)(2_000);
      const hook = { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] };
      const w = await api(t, a, 'POST', '/webhooks', { body: hook, key });
      if (w.json?.error?.code !== 'idempotency_conflict') throw new Error(`webhook answered ${w.status}`);
    },
  },
];
