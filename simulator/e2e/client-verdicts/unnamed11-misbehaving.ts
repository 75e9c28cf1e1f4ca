import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { fleet, pod } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import {
  bullmqExponential,
  createWith,
  daprConstant,
  goRetryableDefault,
  loop,
  springExponentialRandom,
  stepFunctionsFull,
} from './unnamed11-kit.ts';

/**
 * Round 11, misbehaving clients (retries and keys): each breaks one duty and must fail exactly that
 * rule, with evidence. The sentence broken is quoted above each.
 */
export const MISBEHAVING_11: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": go-retryablehttp's defaults are RetryMax 4, five attempts.
  {
    does: 'is a Go client on go-retryablehttp’s defaults (RetryMax 4, DefaultBackoff 1 s doubling) reading through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), goRetryableDefault, 4));
    },
  },
  // "retry only after rate_limited and internal": Spring's @Retryable with no include list retries every
  // RestClientException, a 404 (unknown connector) among them.
  {
    does: 'is a Spring Boot service whose @Retryable(maxAttempts = 3) has no include list, so a create for an unknown connector refused 404 is sent twice more',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1151);
      const body = { ...CONNECTION, connectorId: 'no-such-connector', scopeLabel: 'Spring Snack Bar' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, 'spring-create-0404'),
        springExponentialRandom(random),
        2,
        (x) => x.status !== 200,
      );
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Step Functions Retry re-invokes the
  // Lambda, which mints a UUID key on every invocation: the retried create carries a new key.
  {
    does: 'is a Step Functions Retry around a Lambda that mints a new UUID Idempotency-Key on every invocation, retrying a committed-then-500 create',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1152);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Lambda Lounge' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, uuid(random)), stepFunctionsFull(random), 3));
    },
  },
  // "A sibling process sending a dead pod's failed create again ... must carry its key": each replica
  // keeps its keys in memory, so replica B mints a new key for the job replica A's create failed on.
  {
    does: 'runs two replicas each with an in-memory key store; replica A’s create is dropped and replica B sends the same job 2 s later under a key of its own',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Split Brain Brasserie' };
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const [ra, rb] = [pod(t, 'replica-a', 1153), pod(t, 'replica-b', 1154)];
      await fleet(
        t,
        [
          async (sleep) => {
            ok('a read', await get(t, ra.auth, '/providers?category=replica-a'));
            await sleep(300);
            await createWith(t, ra.auth, body, ra.key());
          },
          async (sleep) => {
            ok('b read', await get(t, rb.auth, '/providers?category=replica-b'));
            await sleep(2_500);
            ok('takeover', await createWith(t, rb.auth, body, rb.key()));
          },
        ],
        [0, 100],
      );
    },
  },
  // "use a new key for each new operation": a key store keyed by venue, so a second create for the same
  // venue with other capabilities goes out under the first one's key.
  {
    does: 'derives its Idempotency-Key from the venue, so a later create for the same venue with another capability list reuses the key and is refused 409',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'venue-harbour-kitchen-deck';
      ok('first', await createWith(t, a, { ...CONNECTION, capabilities: ['orders.read'] }, key));
      await sleeper(t)(60_000);
      const r = await createWith(t, a, CONNECTION, key);
      if (r.status !== 409) throw new Error(`answered ${r.status}`);
    },
  },
  // "A sample client makes up to 4 attempts": a BullMQ job with attempts: 6 and exponential back-off.
  {
    does: 'is a BullMQ job (attempts: 6, backoff exponential 1000 ms) creating with the job id as key through five 500s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const body = { ...CONNECTION, scopeLabel: 'Bull Queue Bistro' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'bullmq-job-20931'), bullmqExponential, 5));
    },
  },
  // "Clients retry with growing intervals and slight random spread": a Dapr resiliency policy of kind
  // constant (duration 1s, maxRetries 2): the same second every time, no draw.
  {
    does: 'calls through a Dapr sidecar with a constant resiliency policy (1 s, maxRetries 2), three reads each through two 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), daprConstant, 2));
        await sleep(4_000);
      }
    },
  },
  // "retry only after rate_limited and internal": a Vapor client re-encodes a capability check refused
  // 400 with .prettyPrinted and sends it again: the same content, only the spacing changed.
  {
    does: 'is a Vapor client that sends a capability check refused 400 again, re-encoded with JSONEncoder .prettyPrinted (same content, other spacing)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'x', capability: 'orders.read' };
      const r = await api(t, a, 'POST', '/capabilities', { body });
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
      await sleeper(t)(800);
      await api(t, a, 'POST', '/capabilities', { raw: JSON.stringify(body, null, 2) });
    },
  },
];
