import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { ktorExponential, sleeper } from './unnamed6-kit.ts';
import { temporalIntervalMs } from './unnamed7-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { sqsVisibilityBackoffMs } from './unnamed9-kit.ts';

/**
 * Round 9, well-behaved runs: schedulers, queues, serverless runners, a secret rotation, batches and
 * stream readers of other stacks. Each must get no `fail`.
 */
export const RUNS_9: UnnamedClient2[] = [
  // "respect the wait time of the response": a Temporal activity that raises ApplicationError with
  // NextRetryDelay = Retry-After on a 429 (the Go SDK's per-failure delay), the policy's interval
  // otherwise (1 s × 2^(attempt-1), MaximumAttempts 4), and NonRetryable on 4xx. The key is the
  // workflow id and activity id, the same on every attempt.
  {
    does: 'is a Temporal activity (MaximumAttempts 4) that sets NextRetryDelay from a 429’s Retry-After (3 s) and marks 4xx non-retryable, creating through a 429 and a 500, and a 400 not retried',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Workflow Wharf' };
      const key = 'wf-onboard-venue-8812:activity-5';
      ok(
        'the create',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/connections', { body, key }),
          (n, r) => (r.status === 429 ? r.retryAfterMs : temporalIntervalMs(n + 1)),
        ),
      );
      const bad = { ...CONNECTION, scopeLabel: 'X' };
      const r = await api(t, a, 'POST', '/connections', { body: bad, key: 'wf-onboard-venue-8813:activity-5' });
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "retry with growing intervals": an SQS-fed Lambda with ReportBatchItemFailures: only the failed
  // message comes back, after a visibility timeout it sets from ApproximateReceiveCount (20 s × 2^(n-1)
  // plus up to 20 %); maxReceiveCount 4 before the dead-letter queue. The key is the message id.
  {
    does: 'is an AWS Lambda fed by SQS (batch of three, ReportBatchItemFailures, ChangeMessageVisibility back-off 20 s·2^(n-1) + 20 %, maxReceiveCount 4 then a DLQ) whose second message’s create answers 500 twice',
    pass: ['retry.same-key-and-content', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const warm = auth(t, undefined, 3_600);
      const sleep = sleeper(t);
      const random = seeded(911);
      const messages = ['Dock One Diner', 'Dock Two Deli', 'Dock Three Tapas'].map((scopeLabel, i) => ({
        id: `sqs-msg-4c1f-000${i}`,
        body: { ...CONNECTION, scopeLabel },
      }));
      const send = (m: (typeof messages)[number]) => api(t, warm, 'POST', '/connections', { body: m.body, key: m.id });
      let failed: typeof messages = [];
      for (const [i, m] of messages.entries()) {
        // Message 1's create answers 500 on its first two receives (the fault counts calls, so it is
        // armed again just before the redelivery).
        if (i === 1) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        if ((await send(m)).status !== 200) failed.push(m);
      }
      for (let receiveCount = 1; failed.length && receiveCount < 4; receiveCount++) {
        await sleep(sqsVisibilityBackoffMs(receiveCount, 20, random));
        if (receiveCount === 1) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        const again: typeof messages = [];
        for (const m of failed) if ((await send(m)).status !== 200) again.push(m);
        failed = again;
      }
      if (failed.length) throw new Error('a message went to the DLQ');
    },
  },
  // Ktor `HttpRequestRetry { retryOnServerErrors(3); retryIf { _, r -> r.status.value == 429 };
  // exponentialDelay() }`: the retried HttpRequestBuilder keeps its headers, the key among them, and
  // exponentialDelay respects Retry-After (the larger of the two).
  {
    does: 'is a Kotlin Ktor client (HttpRequestRetry: retryOnServerErrors(3), retryIf 429, exponentialDelay() respecting Retry-After) creating a connection through a 503 and a 429 (Retry-After: 5)',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 1 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Coroutine Corner' };
      const wait = ktorExponential(seeded(912));
      ok(
        'the create',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/connections', { body, key: 'ktor-req-19ab77c3' }),
          (n, r) => wait(n + 1, r),
        ),
      );
    },
  },
  // "rotate the secret regularly": the secret is rotated mid-run and a token is fetched with the new
  // one at once (one early replacement, then renewals 60 s before expiry). One early renewal is no churn.
  {
    does: 'rotates its client secret 3 minutes into a run and fetches a token with the new secret at once (the old one had 12 minutes left), then renews 60 s before expiry, reading every 10 s for 40 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 900);
      let issuedAt = 0;
      for (let s = 0; s < 2_400; s += 10) {
        if (s === 180 || s - issuedAt >= 840) {
          a = auth(t, undefined, 900);
          issuedAt = s;
        }
        ok('poll', await get(t, a, s % 20 ? '/connections' : '/providers'));
        await sleep(10_000);
      }
    },
  },
  // "use a new key for each new operation": a batch import pooled under one batch id, each item's key
  // derived from it (`<batch>:<index>`); the item answered 500 is retried under its own derived key.
  {
    does: 'is a batch importer deriving each item’s key from one batch id (batch-7f3a:0, :1, :2 …); the item answered 500 is retried with its own derived key',
    pass: ['idempotency.one-key-one-content', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(913);
      for (let i = 0; i < 5; i++) {
        if (i === 2) fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
        const body = { ...CONNECTION, scopeLabel: `Batch Venue ${i + 1}` };
        ok(
          `item ${i}`,
          await retrying(
            sleep,
            () => api(t, a, 'POST', '/connections', { body, key: `batch-7f3a:${i}` }),
            (n) => 500 * 2 ** n + Math.floor(random() * 250),
          ),
        );
        await sleep(200);
      }
    },
  },
  // A Cloudflare Worker on a cron trigger every minute: the token lives in KV and is reused by every
  // invocation until 60 s before it expires; one invocation's read answers 500 and is retried inside it.
  {
    does: 'is a Cloudflare Worker on a one-minute cron trigger sharing a KV-cached token across invocations (renewed 60 s before expiry), one invocation retrying a 500 after 600 ms',
    pass: ['auth.token-reused', 'retry.only-after-failure'],
    async run(t) {
      const sleep = sleeper(t);
      let cached = auth(t, undefined, 600);
      let issuedAt = 0;
      for (let minute = 0; minute < 30; minute++) {
        if (minute * 60 - issuedAt >= 540) {
          cached = auth(t, undefined, 600);
          issuedAt = minute * 60;
        }
        if (minute === 7) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        let r = await get(t, cached, '/connections');
        if (r.status >= 500) {
          await sleep(600);
          r = await get(t, cached, '/connections');
        }
        ok('the poll', r);
        await sleep(minute === 7 ? 59_400 : 60_000);
      }
    },
  },
  // A GitHub Actions matrix (three legs at once, each a runner with its own token), each leg creating
  // its venue under `${run_id}-${matrix.venue}`; one leg's create is committed then answered 500, and
  // "Re-run failed jobs" 3 minutes later sends it again under the same key: the replay.
  {
    does: 'is a GitHub Actions matrix of three legs at once (a token each), each reading, creating a venue under a run_id-venue key and reading again; one leg’s create is committed then answered 500, and "Re-run failed jobs" 3 minutes later resends it with its key',
    // The re-run comes after the 120 s a retry is looked for in: a keyed repeat, not a retry sequence.
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const venues = ['north', 'south', 'east'];
      const body = (v: string) => ({ ...CONNECTION, scopeLabel: `Matrix Venue ${v}` });
      // The legs run at once on three runners, each reading the connector list before and the
      // connections after its create (so each token is in use while the others are).
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      await Promise.all(
        venues.map(async (v) => {
          const leg = auth(t);
          await get(t, leg, `/connectors?category=pos&leg=${v}`);
          await api(t, leg, 'POST', '/connections', { body: body(v), key: `gha-771204-${v}` });
          await get(t, leg, `/connections?leg=${v}`);
        }),
      );
      await sleeper(t)(180_000);
      const rerun = auth(t);
      const r = ok(
        'the re-run',
        await api(t, rerun, 'POST', '/connections', { body: body('south'), key: 'gha-771204-south' }),
      );
      if (r.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a Vault agent sidecar renews the token
  // file at two thirds of its life; the Go service re-reads the file on every request.
  {
    does: 'reads its token from a file a Vault agent sidecar renews at two thirds of the token’s 15-minute life, re-reading it per request every 5 s for an hour',
    pass: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let file = auth(t, undefined, 900);
      let issuedAt = 0;
      for (let s = 0; s < 3_600; s += 5) {
        if (s - issuedAt >= 600) {
          file = auth(t, undefined, 900);
          issuedAt = s;
        }
        ok('read', await get(t, file, s % 10 ? '/connections' : '/capabilities'));
        await sleep(5_000);
      }
    },
  },
];
