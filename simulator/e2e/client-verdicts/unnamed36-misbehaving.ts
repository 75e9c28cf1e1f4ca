import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  abapWaitUpTo,
  CAPABILITY_CHECK,
  cronRun,
  delphiRandom,
  delphiSleep,
  fluentdWait,
  GRPC_NET_MAX_ATTEMPTS,
  grpcNetPolicy,
  tsRetryPromiseFixed,
} from './unnamed36-kit.ts';
import { MISBEHAVING_36_MORE } from './unnamed36-misbehaving-more.ts';

/**
 * Round 36, misbehaving clients whose violation looks correct: Fluentd's unbounded buffer retries,
 * ts-retry-promise's FIXED default, the Grpc.Net docs' MaxAttempts 5, ABAP's whole-second WAIT, Delphi's
 * Random never seeded, HttpClient 4 retrying 503s on a fixed interval. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_36: (FaultyClient & { options?: SandboxOptions })[] = [
  // "up to 4 attempts": out_http without retry_max_times retries until retry_timeout (72 h).
  {
    does: 'is a Fluentd out_http output on its buffer defaults (no retry_max_times: retries until 72 h) posting a capability check through six 500s: seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 6 });
      const send = () => api(t, a, 'POST', '/capabilities', { body: CAPABILITY_CHECK });
      ok('check', await loop(sleeper(t), send, fluentdWait(seeded(3651)), 6));
    },
  },
  // "growing intervals and slight random spread": `retry(fn, { retries: 3, delay: 1000 })` reads like a
  // backoff, but ts-retry-promise's backoff defaults to FIXED: 1 s, 1 s, 1 s.
  {
    does: 'is ts-retry-promise retry(fn, { retries: 3, delay: 1000 }) on its default backoff (FIXED), three reads through three 500s: 1 s, 1 s, 1 s',
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: tsRetryPromiseFixed, failures: 3, max: 3 }),
  },
  // "up to 4 attempts": the retry policy copied from the Grpc.Net docs' example keeps MaxAttempts = 5.
  {
    does: 'is a .NET DelegatingHandler on the retry policy of the Grpc.Net docs’ example (MaxAttempts 5, 1 s, 5 s, 1.5), three reads through four 500s: five attempts each',
    fails: ['retry.attempt-limit'],
    run: (t) =>
      readsOn(t, auth(t), sleeper(t), {
        schedule: grpcNetPolicy(seeded(3653)),
        failures: GRPC_NET_MAX_ATTEMPTS - 1,
        max: GRPC_NET_MAX_ATTEMPTS - 1,
      }),
  },
  // "growing intervals and slight random spread": the guidance computed in ms and handed to WAIT UP TO
  // ... SECONDS through a type i: 1 s, 1 s, 2 s every time, the draw rounded away.
  {
    does: 'is an ABAP report computing 500 * 2 ** n + random( 250 ) ms and waiting WAIT UP TO lv_ms / 1000 SECONDS (a type i: whole seconds), three reads through three 500s: 1 s, 1 s, 2 s',
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: abapWaitUpTo(seeded(3654)), failures: 3, max: 3 }),
  },
  // "slight random spread": Delphi's Random without Randomize starts from RandSeed 0 in every process, so
  // each run of the job draws the same jitter: the spread of one run is the spread of all.
  {
    does: 'is a Delphi THTTPClient job that never calls Randomize, run every 5 minutes as a new process (a new token each run), each run sleeping 500 shl n + Random(250) through two 500s: the same draws every run',
    fails: ['retry.spread'],
    async run(t) {
      for (let run = 0; run < 6; run++) {
        const schedule = delphiSleep(delphiRandom(0));
        await cronRun(t, auth(t), sleeper(t), { schedule, failures: 2, path: '/connectors', route: 'listConnectors' });
        await sleeper(t)(300_000);
      }
    },
  },
  // "Retry guidance: retry only after rate_limited and internal ... respect the wait time": the strategy
  // retries 503s, but every second (its retryInterval), never reading the 503's Retry-After (2 s).
  {
    does: 'is an Apache HttpClient 4 with DefaultServiceUnavailableRetryStrategy(3, 1000) re-executing a create 1 s after each of three 503s (Retry-After 2, unread)',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 2, count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Fixed Falafel' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'hc4-fixed-1'),
          () => 1_000,
          3,
        ),
      );
    },
  },
  ...MISBEHAVING_36_MORE,
];
