import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  argoEvents,
  benthos,
  fluentBit,
  haproxyLua,
  knativeExponential,
  knativeLinear,
  vectorFull,
} from './unnamed18-kit.ts';

/**
 * Round 18, well-behaved clients (Vector, Fluent Bit, Redpanda Connect, Argo Events, Knative, HAProxy Lua).
 * Each must get no `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_18: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": Vector's http sink grows its delay as
  // a Fibonacci sequence (1, 1, 2 s) and, by default (retry_jitter_mode = "Full"), draws in [0, delay].
  {
    does: 'is a Vector http sink on its default Fibonacci backoff with full jitter, three reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: vectorFull(seeded(1801)), failures: 3, max: 3 });
    },
  },
  // "retry only after rate_limited and internal": Fluent Bit's http output (Retry_Limit 3) sending a
  // capability check, rescheduled by its scheduler's draw between base and min(cap, base * 2^r).
  {
    does: 'is a Fluent Bit http output (Retry_Limit 3) posting a capability check, rescheduled after two 500s by its base/cap scheduler draw',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      const send = () => api(t, a, 'POST', '/capabilities', { body });
      ok('check', await loop(sleeper(t), send, fluentBit(seeded(1812)), 3));
    },
  },
  // "Clients retry with growing intervals": a Redpanda Connect (Benthos) http_client input polling the
  // connectors, its exponential backoff (x1.5, randomization 0.5) through two gateway 503s per read.
  {
    does: 'is a Redpanda Connect http_client input with retry_period 1s (x1.5, randomisation 0.5), three reads each through two gateway 503s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: benthos(seeded(1803)),
        failures: 2,
        max: 3,
        from: 1,
        kind: 'unavailable',
      });
    },
  },
  // "the same key with the same content returns the same response again": an Argo Events sensor's HTTP
  // trigger sends the event's id as Idempotency-Key, and its retryStrategy resends it after a 500 after commit.
  {
    does: 'is an Argo Events sensor HTTP trigger keying a create by the event id, retried by its retryStrategy (1s, x2, jitter 0.2) after a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = `argo-evt-${uuid(seeded(1804)).slice(0, 18)}`;
      const body = { ...CONNECTION, scopeLabel: 'Sensor Street Diner' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), argoEvents(seeded(1814)), 3));
    },
  },
  // "the same key with the same content": a Knative Trigger subscriber keys its create by the CloudEvent's
  // ce-id; it answers 500 when the service's gateway answered 503, and the broker redelivers the same event.
  {
    does: 'is a Knative Trigger subscriber keying its create by ce-id, redelivered by the broker (exponential, 0.5 s) after a 503 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const key = 'ce-id.5e1d2c3b-knative-0042';
      const body = { ...CONNECTION, scopeLabel: 'Broker Bagel Bar' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), knativeExponential, 3));
    },
  },
  // "linear growth is growth" (the rules' reading of "growing intervals"): Knative's linear backoffPolicy
  // (0.5 s, 1 s, 1.5 s) on a subscriber's read through three 500s.
  {
    does: 'is a Knative subscriber on the linear backoffPolicy (0.5 s, 1 s, 1.5 s) reading the connections through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), knativeLinear, 3));
    },
  },
  // "doubles the wait (500 ms times 2 to the power of the attempt number) plus a random amount up to 250 ms":
  // a HAProxy Lua action on core.httpclient with core.msleep(500 * 2^n + math.random(0, 250)).
  {
    does: 'is a HAProxy Lua action on core.httpclient sleeping core.msleep(500 * 2^n + math.random(0, 250)), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: haproxyLua(seeded(1807)), failures: 2, max: 3, from: 2 });
    },
  },
  // "respect the wait time of the response": the HAProxy Lua action reads Retry-After from the 429 and
  // sleeps core.sleep(retry_after) instead of its backoff.
  {
    does: 'is a HAProxy Lua action sleeping core.sleep() for a 429’s Retry-After (3 s) before its one retry',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs || haproxyLua(seeded(1808))(n);
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers?category=pos'), wait, 3));
    },
  },
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": a Redpanda Connect pipeline whose
  // SSE input keeps the last id it passed to its output and reconnects with it after the server cut the stream.
  {
    does: 'is a Redpanda Connect pipeline reading the stream, cut after 3 messages, reconnecting 1 s later with Last-Event-ID of the last message it read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "by sending Last-Event-ID or the query parameter cursor": a NATS bridge republishing the stream into
  // JetStream with Nats-Msg-Id = the SSE id, resuming with ?cursor= from the last id JetStream acknowledged.
  {
    does: 'is a NATS bridge republishing the stream into JetStream (Nats-Msg-Id = SSE id), cut after 4 messages, resuming 3 s later with ?cursor= of the last acknowledged id',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 4) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(3_000);
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
