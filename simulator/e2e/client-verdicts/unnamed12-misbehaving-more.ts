import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { heartbeatReconnects, juliaBackoff, powerAutomate, terraformRefresh } from './unnamed12-kit.ts';

/** Round 12, more misbehaving clients: workflow tools, infrastructure tooling, clocks and streams. */
export const MISBEHAVING_MORE_12: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": a Terraform provider wraps its read in
  // retry.RetryContext(ctx, 30*time.Second, ...) returning RetryableError on 5xx: it tries until the
  // 30 s are up, seven attempts.
  {
    does: 'is a Terraform provider whose read runs in retry.RetryContext with a 30 s timeout (waits 0.5, 1, 2, 4, 8, 10 s) through six 500s: seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 6 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), terraformRefresh, 6));
    },
  },
  // "retry only after rate_limited and internal": a Terraform provider's read-after-create treats 404 as
  // eventual consistency and retries it (the usual `if isNotFound(err) { return RetryableError }`).
  {
    does: 'is a Terraform provider whose read-after-create retries GET /connections/{id} answered 404 as eventual consistency, three more times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connections/conn_not_there_yet'),
        terraformRefresh,
        3,
        (x) => x.status === 404,
      );
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "A sample client makes up to 4 attempts and doubles the wait": MuleSoft's until-successful scope on
  // its defaults (maxRetries 5, millisBetweenRetries 60000): six attempts a minute apart.
  {
    does: 'is a MuleSoft flow whose until-successful scope keeps its defaults (maxRetries 5, millisBetweenRetries 60000), reading through five 500s',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => 60_000,
          5,
        ),
      );
    },
  },
  // "A sample client makes up to 4 attempts": Power Automate's default retry policy is exponential with
  // four retries: five attempts of a create (under one key).
  {
    does: 'is a Power Automate HTTP action on the default retry policy (exponential, 4 retries, 7 s) creating through four 500s: five attempts under one key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Default Policy Pantry' };
      const wait = powerAutomate(seeded(1264));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'pa-run-08586-create'), wait, 4));
    },
  },
  // "A sample client makes up to 4 attempts": Julia HTTP.jl's default `retries = 4` on a GET: five.
  {
    does: 'is a Julia job on HTTP.jl’s defaults (retries = 4, ExponentialBackOff 50 ms x3) reading through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), juliaBackoff(seeded(1265)), 4));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a client whose clock runs 200 s ahead
  // compares the token's expiry with its own clock and renews once it thinks under 60 s are left: 40 s
  // after each issue, 260 s of 300 still left, while it reads every 5 s.
  {
    does: 'runs with its clock 200 s ahead and renews 300 s tokens when it believes 60 s are left (40 s after issue, 260 s really left), reading every 5 s for 5 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      const clock = () => t.sandbox.state.clock.now() + 200_000;
      let a = auth(t, undefined, 300);
      let exp = t.sandbox.state.clock.now() + 300_000;
      for (let i = 0; i < 60; i++) {
        if (exp - clock() < 60_000) {
          a = auth(t, undefined, 300);
          exp = t.sandbox.state.clock.now() + 300_000;
        }
        ok('read', await get(t, a, i % 2 ? '/providers' : '/connectors'));
        await sleep(5_000);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID or ... cursor": a consumer whose idle timeout is
  // shorter than the heartbeat interval builds a fresh EventSource on every timeout, dropping its
  // position: each reconnect carries no cursor.
  {
    does: 'reconnects after every quiet spell (idle timeout under the heartbeat interval) with a fresh EventSource that sends no Last-Event-ID',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      await heartbeatReconnects(t, a, { rounds: 4, perRound: 2, between: sleeper(t), resume: () => undefined });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a provider configured with
  // the version as a timestamp (2026-07-01T00:00:00Z), no published identifier; the 400 is logged.
  {
    does: 'sends Service-Version: 2026-07-01T00:00:00Z (the version date written as a timestamp by its config schema) and logs the 400',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const r = await api(t, a, 'GET', '/providers', { version: '2026-07-01T00:00:00Z' });
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": a client that "compensates for latency" by counting the
  // Retry-After from when it sent the request, so it retries 800 ms (its measured round trip) early.
  {
    does: 'counts a 429’s Retry-After (2 s) from when it sent the request, subtracting its measured 800 ms round trip, so it retries 1.2 s after the answer',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      const r = await get(t, a, '/connectors');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(r.retryAfterMs - 800);
      ok('retry', await get(t, a, '/connectors'));
    },
  },
  // "growing intervals" and "renewed, not extended": an n8n Error Trigger workflow re-executes a failed
  // workflow 1 s later, three times; every execution fetches a fresh OAuth token for its one read.
  {
    does: 'is an n8n Error Trigger that re-executes a failed workflow 1 s later, three times, each execution fetching a fresh token for its one read',
    fails: ['retry.growing-waits', 'auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      for (let execution = 0; execution < 4; execution++) {
        const r = await get(t, auth(t), '/providers');
        if (r.status === 200) return;
        await sleep(1_000);
      }
      throw new Error('never succeeded');
    },
  },
  // "A sample client makes up to 4 attempts": the same n8n Error Trigger, its OAuth credential issuing
  // 60 s tokens, re-executing with growing waits (1, 2, 4, 8 s + draw): five executions of one read,
  // each on a new token (one process renewing: the tokens never overlap).
  {
    does: 'is an n8n Error Trigger re-executing a failed workflow after 1, 2, 4 and 8 s (plus a draw), each execution on a fresh 60 s token: five attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const sleep = sleeper(t);
      const random = seeded(1267);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      for (let execution = 0; execution < 5; execution++) {
        const r = await get(t, auth(t, undefined, 60), '/connectors');
        if (r.status === 200) return;
        await sleep(1_000 * 2 ** execution + Math.floor(random() * 250));
      }
      throw new Error('never succeeded');
    },
  },
  // "respect the wait time of the response": a client that takes a 429 for a token problem, fetches a
  // new token and sends the read again 200 ms later (Retry-After: 3).
  {
    does: 'takes a 429 (Retry-After: 3) for a token problem, fetches a new token and sends the read again 200 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 3, count: 1 });
      const r = await get(t, auth(t, undefined, 60), '/capabilities');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(200);
      ok('retry', await get(t, auth(t, undefined, 60), '/capabilities'));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Terraform provider that mints the key
  // per apply, not in the resource's state; the create's connection drops, the person runs
  // `terraform apply` again 40 s later and the create goes out under a new key.
  {
    does: 'is a Terraform provider minting the Idempotency-Key per apply: the create’s connection drops and the apply run again 40 s later sends it under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Applied Twice Tapas' };
      const first = await createWith(t, auth(t), body, 'tf-apply-1f0e-create');
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(40_000);
      ok('second apply', await createWith(t, auth(t), body, 'tf-apply-77c2-create'));
    },
  },
];
