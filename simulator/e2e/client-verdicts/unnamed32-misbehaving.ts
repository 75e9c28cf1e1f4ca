import { randomUUID } from 'node:crypto';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  derivedKey,
  kombuPolicy,
  micropythonSleep,
  retrofitBackoff,
  shoryukenIntervals,
  unrealBackoff,
} from './unnamed32-kit.ts';
import { MISBEHAVING_32_TOKENS } from './unnamed32-misbehaving-tokens.ts';
import { opened, renewing } from './unnamed32-well-behaved.ts';

/**
 * Round 32, misbehaving clients whose violation looks correct: doubling without a draw, Kombu's publish
 * retry_policy on HTTP, Gatling's tryMax, a retry limit counted as retries, a key derived from the
 * Authorization header, a renewal that replays at once, a cursor checkpointed at renewal, a key made in
 * perform, a converter swapped after a 400. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_32: (FaultyClient & { options?: SandboxOptions })[] = [
  // "slight random spread": MicroPython's time.sleep(2 ** n) doubles, but draws nothing.
  {
    does: 'is MicroPython on a Pico W retrying reads with time.sleep(2 ** n) (no random), three reads each through two 500s',
    fails: ['retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: micropythonSleep, failures: 2, max: 3 }),
  },
  // "growing intervals": Kombu's publish policy (start 0, step 0.2, max 0.2) caps at its second wait.
  {
    does: 'copies Celery’s default publish retry_policy (interval_start 0, interval_step 0.2, interval_max 0.2, max_retries 3) onto its HTTP reads: waits 0, 200, 200 ms, three reads through three 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: kombuPolicy, failures: 3, max: 3 }),
  },
  // "growing intervals": tryMax(4) runs its block again at once.
  {
    does: 'is a Gatling scenario wrapping a read in tryMax(4) with a status.is(200) check, which repeats the block at once, through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
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
  // "up to 4 attempts": RetryLimitCount = 4 counts retries, so the request is sent five times.
  {
    does: 'is an Unreal server with FHttpRetrySystem RetryLimitCount = 4 (retries, not attempts), reading through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      const wait = unrealBackoff(seeded(3254));
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (n) => wait(n),
          4,
        ),
      );
    },
  },
  // "Idempotency keys reused on retries": the key is sha256(Authorization + body), stable until the
  // interceptor renews the token between the attempts.
  {
    does: 'is a Retrofit client deriving its Idempotency-Key from sha256(Authorization + body), whose create fails 500 just before its auth interceptor renews the token, so the retry carries another key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const current = renewing(t, 300, 60_000);
      ok('warm', await get(t, current(), '/connections'));
      await sleeper(t)(239_800);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Derived Dumpling' };
      const wait = retrofitBackoff(seeded(3255));
      const send = () => {
        const a = current();
        return createWith(t, a, body, derivedKey(a.token, body));
      };
      ok('create', await retrying(sleeper(t), send, wait));
    },
  },
  // "respect the wait time of the response": on a 429 near expiry the client renews and replays at once,
  // as if a fresh token brought a fresh budget.
  {
    does: 'is a Retrofit client that, refused 429 (Retry-After 3 s) with under a minute of its token left, renews the token and replays the read at once',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const current = renewing(t, 300, 60_000);
      ok('warm', await get(t, current(), '/connectors'));
      await sleeper(t)(241_000);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const refused = await get(t, current(), '/connectors');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      ok('replay', await get(t, auth(t, undefined, 300), '/connectors'));
    },
  },
  // "(last number read)": the cursor is persisted when the token is renewed (2 min before expiry); the
  // old stream reads on until the expiry closes it, and the reader resumes from the checkpoint.
  {
    does: 'is an SSE reader persisting its cursor in the token-renewal callback (2 minutes before expiry), whose stream reads on until the old token expires and which resumes from that checkpoint',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const first = auth(t, undefined, 900);
      const o = opened();
      const reading = readStream(t, first, { idleMs: 5_000, onOpen: o.onOpen });
      await o.wait;
      publish(t, first.tenant, 2);
      await t.sandbox.control.advanceClock(780);
      const renewed = auth(t, undefined, 900);
      publish(t, first.tenant, 2);
      await t.sandbox.control.advanceClock(121); // the first token expires: the server closes its stream
      const ids = await reading;
      const checkpoint = ids[1];
      if (ids.length !== 4 || checkpoint === undefined) throw new Error(`read ${ids.join(',')}`);
      await readStream(t, renewed, { cursor: checkpoint, idleMs: 500 });
    },
  },
  // "respect the wait time of the response": the engine honours Retry-After on 503 only; a 429 gets its curve.
  {
    does: 'is an Unreal server honouring Retry-After only on 503 (as its retry system is configured), so a 429 (Retry-After 5 s) gets the curve’s 1-2 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
      const wait = unrealBackoff(seeded(3258));
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          (n) => wait(n),
          3,
        ),
      );
    },
  },
  // "Idempotency keys reused on retries": the key is made in perform(), which runs again per receive.
  {
    does: 'is a Shoryuken worker (retry_intervals [1, 4, 16]) whose perform() makes the Idempotency-Key, so each receive of the message after a 500 sends the create under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Perform Pho' };
      const wait = (n: number) => shoryukenIntervals[n] ?? 16_000;
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, `perform-${randomUUID()}`), wait, 3));
    },
  },
  // "retry only after rate_limited and internal": after a 400 the client swaps Gson for Moshi (other key
  // order) and sends again under a new key: the service's canonical JSON sees the same content.
  {
    does: 'is a Retrofit client that after a 400 (a one-character scopeLabel) swaps its Gson converter for Moshi and sends the create again under a new key: other key order, the same content',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const bad = await createWith(t, a, { ...CONNECTION, scopeLabel: 'G' }, 'gson-create-1');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      const { capabilities, scopeLabel, environment, connectorId } = { ...CONNECTION, scopeLabel: 'G' };
      const raw = JSON.stringify({ capabilities, scopeLabel, environment, connectorId });
      await api(t, a, 'POST', '/connections', { raw, key: 'moshi-create-2' });
    },
  },
  ...MISBEHAVING_32_TOKENS,
];
