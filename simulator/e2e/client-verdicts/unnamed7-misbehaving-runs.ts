import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { guidanceWait, retried, transient } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { jobPodBackoffMs } from './unnamed7-kit.ts';

/** Round 7, misbehaving: job runners, queues and caches that break one duty. */
export const RUN_FAULTS_7: FaultyClient2[] = [
  // "Clients retry with growing intervals": an Airflow task with retries=3 and retry_delay=15 s but
  // without retry_exponential_backoff: every try 15 s after the last (each try its own process).
  {
    does: 'is an Airflow task with retries=3 and retry_delay 15 s but no retry_exponential_backoff: every try (a new process with its own token) 15 s after the last',
    fails: ['retry.growing-waits'],
    async run(t) {
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const key = 'airflow.venue_sync.manual__2026-11-26T06-00-00.create_connection';
      const body = { ...CONNECTION, scopeLabel: 'Fixed Delay Diner' };
      for (let tryNumber = 1; tryNumber <= 4; tryNumber++) {
        await api(t, auth(t), 'POST', '/connections', { body, key });
        if (tryNumber < 4) await sleep(15_000);
      }
    },
  },
  // "A sample client makes up to 4 attempts": a Kubernetes Job on the default backoffLimit (6): seven
  // pods, each sending the create with the Job's key after the controller's 10/20/40/80 … s back-off.
  {
    does: 'is a Kubernetes Job on the default backoffLimit 6 whose pods each send the create with the Job’s key: seven attempts after the controller’s 10/20/40/80/160/320 s back-off',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 7 });
      const key = 'job.sync-menu-28812399.create';
      const body = { ...CONNECTION, scopeLabel: 'Backoff Limit Bar' };
      for (let failures = 0; failures <= 6; failures++) {
        if (failures > 0) await sleep(jobPodBackoffMs(failures) + 1_800);
        await api(t, auth(t), 'POST', '/connections', { body, key });
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an SQS worker deriving the key from
  // the message's ReceiptHandle, which SQS issues anew on every receive, so the redelivered create
  // goes out under another key (and makes a second connection).
  {
    does: 'is an SQS consumer deriving the key from the ReceiptHandle: worker A’s create is committed then dropped, and worker B, receiving the message after the visibility timeout, sends it under the new handle’s key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const random = seeded(751);
      const workerA = auth(t);
      const workerB = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Receipt Handle Cafe' };
      await api(t, workerB, 'GET', '/connectors?providerId=tillcraft');
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      await api(t, workerA, 'POST', '/connections', { body, key: `rh-${uuid(random)}` });
      await sleeper(t)(30_000);
      await api(t, workerB, 'POST', '/connections', { body, key: `rh-${uuid(random)}` });
    },
  },
  // "Tokens are short-lived and are renewed, not extended." and "request an access token … send it
  // as bearer token": a token cache without single-flight; when the token expires, four request
  // handlers in a row each miss the cache, fetch a token and overwrite it (last writer wins).
  {
    does: 'has a token cache without single-flight: at expiry four request handlers in a row each fetch a token and overwrite the cache, then every call uses the last one',
    fails: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let cached = auth(t, undefined, 600);
      for (let minute = 0; minute < 10; minute++) {
        await api(t, cached, 'GET', '/connections');
        await sleep(60_000);
      }
      // Expired: each handler sees the miss before any has written the cache back.
      for (const path of ['/providers', '/connectors', '/capabilities', '/connections']) {
        cached = auth(t, undefined, 600);
        await api(t, cached, 'GET', path);
        await sleep(20);
      }
      for (let n = 0; n < 8; n++) {
        await sleep(15_000);
        await api(t, cached, 'GET', '/connections');
      }
    },
  },
  // "A sample client makes up to 4 attempts": five attempts of one read; the process renews its
  // token (at expiry, as it should) partway through. The renewal makes no new operation.
  {
    does: 'retries one read five times through 500s on the guidance schedule, renewing its token at expiry partway through (between the second and third attempt)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const sleep = sleeper(t);
      const clock = t.sandbox.state.clock;
      let token = auth(t, undefined, 62);
      let expiresAt = clock.now() + 62_000;
      await api(t, token, 'GET', '/providers');
      await sleep(60_000);
      fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
      const wait = guidanceWait(seeded(752));
      await retried(
        sleep,
        () => {
          if (clock.now() >= expiresAt - 500) {
            token = auth(t, undefined, 900);
            expiresAt = clock.now() + 900_000;
          }
          return api(t, token, 'GET', '/connections');
        },
        (n, x) => (transient(x) ? wait(n) : undefined),
        4,
      );
    },
  },
  // "respect the wait time of the response": after a 429 (Retry-After: 5) the client renews its token,
  // due anyway, and treats the new token as a fresh start: it retries after 1 s.
  {
    does: 'renews its token (due anyway) right after a 429 with Retry-After: 5 and retries the read 1 s later with the new token',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const sleep = sleeper(t);
      const old = auth(t, undefined, 70);
      await api(t, old, 'GET', '/providers');
      await sleep(60_000);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
      await api(t, old, 'GET', '/connections');
      const renewed = auth(t, undefined, 900);
      await sleep(1_000);
      await api(t, renewed, 'GET', '/connections');
    },
  },
  // "A sample client makes up to 4 attempts": a Kubernetes Job on the default backoffLimit 6 running a
  // report read; each pod (its own token) reads once and exits 1 on a 500.
  {
    does: 'is a Kubernetes Job on the default backoffLimit 6 whose pods (each its own token) read a report once and exit on a 500: seven reads after the controller’s back-off',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'getAuditLog', count: 7 });
      for (let failures = 0; failures <= 6; failures++) {
        if (failures > 0) await sleep(jobPodBackoffMs(failures) + 1_800);
        await api(t, auth(t), 'GET', '/audit-log?limit=50');
      }
    },
  },
];
