import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { kiotaRetry } from './unnamed20-kit.ts';
import { stainlessRetry } from './unnamed22-kit.ts';
import { PRODUCTION_REFUND, refused, venue } from './unnamed45-kit.ts';
import {
  fernPython,
  fernTs,
  guid,
  pollyPow2,
  pythonSdkRetries,
  speakeasyBackoff,
  stainlessKey,
} from './unnamed47-kit.ts';

/**
 * Round 47, misbehaving clients written by code generators, each doing what its generator's default (or the
 * documented configuration around it) really does: Kiota's doubling without jitter, urllib3's Retry.DEFAULT
 * resending at once, a Polly policy retrying 404, a key stamped per attempt by a handler or request editor, Stainless's retry of a
 * 409 idempotency_conflict, its 60 s ceiling on Retry-After and its key minted per method call, retries layered
 * over the SDK's, Speakeasy's retries bounded by elapsed time only, a Fern core that never reads Retry-After and Fern
 * Python retrying 409 capability_denied. Each must fail exactly the rule(s) it breaks.
 */
export const MISBEHAVING_47: (FaultyClient & { options?: SandboxOptions })[] = [
  // "Clients retry with growing intervals and slight random spread": Kiota's RetryHandler doubles 3 s exactly.
  {
    does: 'is a Kiota-generated client on RetryHandler defaults (3 s, doubling, no jitter) whose three reads each meet two gateway 503s without Retry-After: every read waits exactly 3 s, then 6 s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'unavailable', route, retryAfterSeconds: 0, count: 2 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), kiotaRetry, 3));
      }
    },
  },
  // "retry only after rate_limited and internal": the .NET microservices guide's GetRetryPolicy adds NotFound.
  {
    does: 'is an NSwag-generated client behind the .NET microservices guide’s GetRetryPolicy (HandleTransientHttpError().OrResult(NotFound).WaitAndRetryAsync(6, 2^n s)): a read of a connection that is gone is repeated six times after its 404s',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      await loop(
        sleeper(t),
        () => get(t, a, '/connections/con_gone_4702'),
        pollyPow2,
        6,
        (r) => r.status === 404 || r.status === 0 || r.status >= 500,
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": the key handler sits inside the Polly handler.
  {
    does: 'is a Refit client whose IdempotencyKeyHandler (sets Guid.NewGuid() on every POST) is added after AddTransientHttpErrorPolicy, so the Polly retry of a create answered 500 goes out 2 s later under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4711);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = venue('Refit Handler Order Cafe');
      refused('first', await createWith(t, a, body, guid(random)), 500);
      await sleeper(t)(pollyPow2(0));
      ok('again', await createWith(t, a, body, guid(random)));
    },
  },
  // "only a retry with the same key gets the outcome": a client-wide RequestEditorFn mints the key per request.
  {
    does: 'is an oapi-codegen client built WithRequestEditorFn(req.Header.Set("Idempotency-Key", uuid.NewString())) whose retry loop calls CreateConnectionWithResponse again 1 s after a dropped connection: the committed create is made twice',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4712);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = venue('Oapi Editor Noodle Bar');
      const first = await createWith(t, a, body, guid(random));
      if (first.status !== 0) throw new Error(`the drop answered ${first.status}`);
      await sleeper(t)(1_000);
      ok('again', await createWith(t, a, body, guid(random)));
    },
  },
  // "The same key with different content yields idempotency_conflict ... use a new key for each new operation";
  // "retry only after rate_limited and internal": a Stainless SDK's _should_retry takes 409 too.
  {
    does: 'is a Stainless-generated Python SDK (max_retries 2, retrying 408, 409, 429 and 5xx) given idempotency_key=f"venue-{id}-create": the venue, renamed since its first create, is created again under that key, and the 409 idempotency_conflict is resent twice',
    fails: ['idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      ok('first', await createWith(t, a, venue('Venue 4713 Harbour Room'), 'venue-4713-create'));
      await sleeper(t)(30_000);
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, venue('Venue 4713 Harbour Terrace'), 'venue-4713-create'),
        stainlessRetry(seeded(4713)),
        2,
        pythonSdkRetries,
      );
      refused('last', r, 409, 'idempotency_conflict');
    },
  },
  // "respect the wait time of the response": a Stainless SDK takes a Retry-After only under 60 s.
  {
    does: 'is a Stainless-generated SDK meeting a 429 with Retry-After 90 s on GET /connections: over its 60 s ceiling, it falls back to its own 0.5 s jittered wait',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 90, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), stainlessRetry(seeded(4714)), 2));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": each SDK call mints its own key; the job's retry
  // is a new SDK call.
  {
    does: 'is a BullMQ job (attempts 2, exponential backoff 2 s) calling a Stainless SDK’s connections.create(body) without idempotencyKey: after the SDK’s two retries of a 500 under its key, the job’s next attempt sends the create under a newly minted key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4715);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = venue('BullMQ Stainless Pantry');
      const sdkCall = () => {
        const key = stainlessKey(random);
        return loop(sleep, () => createWith(t, a, body, key), stainlessRetry(random), 2);
      };
      refused('job attempt 1', await sdkCall(), 500);
      await sleep(2_000);
      ok('job attempt 2', await sdkCall());
    },
  },
  // "A sample client makes up to 4 attempts": the caller's own retry around the SDK call, with the caller's key,
  // multiplies the SDK's attempts.
  {
    does: 'is a Stainless-generated SDK (maxRetries 2) called by a Celery task with autoretry_for=(APIError,), max_retries 1, countdown 3 s, passing idempotency_key from the task id: a create through five 500s is attempted six times under one key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4719);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const body = venue('Celery Stainless Smokehouse');
      const sdkCall = () =>
        loop(sleep, () => createWith(t, a, body, 'celery-task-3f9a0b7c'), stainlessRetry(random), 2);
      refused('task try 1', await sdkCall(), 500);
      await sleep(3_000);
      ok('task try 2', await sdkCall());
    },
  },
  // "A sample client makes up to 4 attempts": Speakeasy's default backoff stops on maxElapsedTime (1 h) only.
  {
    does: 'is a Speakeasy-generated SDK on the documented backoff (initialInterval 500, maxInterval 60000, exponent 1.5, maxElapsedTime 3600000) reading GET /providers through six 500s: seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 6 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), speakeasyBackoff(seeded(4716)), 10));
    },
  },
  // "respect the wait time of the response": an earlier Fern core computes 1 s * 2^n ±20 % and never reads it.
  {
    does: 'is a Fern-generated TypeScript SDK whose core predates Retry-After support: a 429 with Retry-After 3 on GET /connectors is retried after 1 s ±20 %',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), fernTs(seeded(4717), false), 2));
    },
  },
  // "retry only after rate_limited and internal": Fern Python's _should_retry takes 409 (capability_denied) too.
  {
    does: 'is a Fern-generated Python SDK (max_retries 2, _should_retry on 408, 409, 429 and 5xx) whose create refused 409 capability_denied is resent twice under its request_options idempotency key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, PRODUCTION_REFUND, 'fern-py-409-6e2a'),
        fernPython(seeded(4718)),
        2,
        pythonSdkRetries,
      );
      refused('last', r, 409, 'capability_denied');
    },
  },
  // "Clients retry with growing intervals": with configuration.retries left None, the generated rest.py builds its
  // PoolManager with urllib3's Retry.DEFAULT (3 retries, backoff_factor 0), which resends a GET at once after a
  // read error.
  {
    does: 'is an openapi-generator python client on its default configuration.retries (None: urllib3’s Retry.DEFAULT, 3 retries, backoff_factor 0) whose GET /providers loses its connection three times: urllib3 resends it at once each time',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'listProviders', failWith: 'drop', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => 0,
          3,
        ),
      );
    },
  },
];
