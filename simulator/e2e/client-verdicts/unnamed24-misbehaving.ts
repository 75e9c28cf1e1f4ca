import { api, auth, CONNECTION, fault, type Reply } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import {
  cenkaltiFreshEachAttempt,
  lestrratExponential,
  messengerMultiplier,
  mojoTimer,
  PATHS,
  podsThrough,
} from './unnamed24-kit.ts';

/**
 * Round 24, misbehaving clients whose violation looks correct: jittered waits that never grow, the same
 * jitter on every pod, a 400 repeated after changing only the token or a header, a key from the service's
 * own key endpoint fetched anew per attempt, attempts spread over a restart. Each must fail exactly its rule.
 */
export const MISBEHAVING_24: FaultyClient[] = [
  // "Clients retry with growing intervals": a Go loop builds `backoff.NewExponentialBackOff()` inside each
  // attempt, so every wait is the first interval drawn anew (250-750 ms): spread, but never growing.
  {
    does: 'is a Go loop building a fresh cenkalti ExponentialBackOff per attempt (every wait its first interval, 250-750 ms), five reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const wait = cenkaltiFreshEachAttempt(seeded(2421));
      for (const path of PATHS) {
        const route = path.startsWith('/providers')
          ? 'listProviders'
          : path === '/connectors'
            ? 'listConnectors'
            : path === '/capabilities'
              ? 'listCapabilities'
              : 'listConnections';
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "slight random spread": four pods seed their jitter with the deployment's start minute, so all four
  // draw the same waits and retry in lockstep.
  {
    does: 'runs four pods (a token each) seeding their lestrrat-go jitter with the deployment’s start time, all retrying connectors in lockstep through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnectors', count: 8 });
      await podsThrough(t, { pods: 4, path: '/connectors', seedOf: () => seeded(2424), schedule: lestrratExponential });
    },
  },
  // "invalid_request ... remedy: check the request": a capability check refused 400 (connectorId too short)
  // is taken for an auth problem: the client fetches a new token and sends the same check again.
  {
    does: 'takes a 400 on a capability check for an auth problem, fetches a new token and sends the same check again 1 s later',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const body = { connectorId: 'x', capability: 'orders.read' };
      const first = await api(t, auth(t), 'POST', '/capabilities', { body });
      if (first.status !== 400) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      const again = await api(t, auth(t), 'POST', '/capabilities', { body });
      if (again.status !== 400) throw new Error(`again ${again.status}`);
    },
  },
  // "invalid_request": a create refused 400 (scopeLabel of one character) sent again under the same key with
  // only a new X-Request-Id and a charset on Content-Type.
  {
    does: 'repeats a create refused 400 under the same key, changing only X-Request-Id and adding charset=utf-8 to Content-Type',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'x' };
      const key = 'mojo-create-5be20a17';
      const first = await createWith(t, a, body, key, { 'x-request-id': 'req-1' });
      if (first.status !== 400) throw new Error(`answered ${first.status}`);
      await sleeper(t)(mojoTimer(seeded(2425))(0));
      await createWith(t, a, body, key, { 'x-request-id': 'req-2', 'content-type': 'application/json; charset=utf-8' });
    },
  },
  // "A sample client makes up to 4 attempts": Symfony Messenger with max_retries 5 on a read: six attempts.
  {
    does: 'is a Symfony Messenger worker with max_retries 5 retrying one read through five 500s (six attempts)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), messengerMultiplier(seeded(2426)), 5));
    },
  },
  // "up to 4 attempts": a worker persists a create's key in an outbox, tries three times, its pod restarts
  // (a new token) and the outbox tries three more times under the same key: six attempts of one operation.
  {
    does: 'is an outbox worker trying a create three times under its persisted key, restarting (new token) and trying three more times',
    fails: ['retry.attempt-limit'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const body = { ...CONNECTION, scopeLabel: 'Outbox Okonomiyaki' };
      const key = 'outbox-row-000417-create';
      const wait = mojoTimer(seeded(2427));
      let a = auth(t);
      await loop(sleeper(t), () => createWith(t, a, body, key), wait, 2);
      await sleeper(t)(4_000);
      a = auth(t);
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), wait, 2));
    },
  },
  // "the same key with the same content": a create failing 500 is retried, but each attempt asks POST
  // /idempotency-keys for its key first, so each retry goes under a key the service issued anew.
  {
    does: 'asks POST /idempotency-keys for a new key before every attempt of a create, retrying it after a 500 under the new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Issued Idli' };
      const send = async () => {
        const k = await api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } });
        return createWith(t, a, body, String(k.json?.data?.idempotencyKey ?? ''));
      };
      ok('create', await loop(sleeper(t), send, mojoTimer(seeded(2428)), 3));
    },
  },
  // "respect the wait time of the response": a Mojo client honours Retry-After on reads but its create path
  // keeps its own 500 ms timer after a 429 (Retry-After 3), under the same key.
  {
    does: 'is a Mojo client whose create path retries a 429 (Retry-After 3) after its own 500 ms timer, under the same key',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Timer Tempura' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'mojo-create-timer-81f2'),
          (_n: number, _r: Reply) => 500,
          3,
        ),
      );
    },
  },
];
