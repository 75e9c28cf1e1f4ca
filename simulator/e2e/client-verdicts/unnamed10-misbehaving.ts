import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { fleet, guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { backon, lwpDetermined, stampedKey } from './unnamed10-kit.ts';

/**
 * Round 10, misbehaving clients: each breaks one duty and must fail exactly that rule, with evidence.
 * The sentence broken is quoted above each.
 */
export const MISBEHAVING_10: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": honouring every Retry-After does not lift the bound;
  // five retries of one read through a long 429 outage (Retry-After: 20 each) are six attempts.
  {
    does: 'honours every Retry-After (20 s) of a long 429 outage but retries one read five times: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1051);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 20, count: 5 });
      ok(
        'providers',
        await retrying(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => 20_000 + Math.floor(random() * 250),
          {
            max: 5,
          },
        ),
      );
    },
  },
  // "use a new key for each new operation": a second, different create sent by mistake under the
  // first's key is refused idempotency_conflict; the client then does the remedy (a new key). The
  // reused key is the fault; the new key after the 409 is no retry under a new key.
  {
    does: 'reuses a succeeded create’s key for a different create, is refused 409 idempotency_conflict, and sends the second create again under a new key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      ok('first', await api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'venue-key-0001' }));
      await sleep(1_000);
      const second = { ...CONNECTION, scopeLabel: 'Second Venue Annex' };
      const clash = await api(t, a, 'POST', '/connections', { body: second, key: 'venue-key-0001' });
      if (clash.status !== 409) throw new Error(`answered ${clash.status}`);
      await sleep(300);
      ok('second', await api(t, a, 'POST', '/connections', { body: second, key: 'venue-key-0002' }));
    },
  },
  // "respect the wait time of the response": a pool of workers on one token whose worker refused 429
  // (Retry-After: 3) puts the job back on the queue; another worker takes it 200 ms later.
  {
    does: 'runs a worker pool on one token that requeues a read refused 429 (Retry-After: 3); another worker picks it up 200 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const queue = ['/connectors', '/providers?category=pos', '/capabilities'];
      await fleet(
        t,
        [0, 1].map(() => async (sleep) => {
          for (let path = queue.shift(); path; path = queue.shift()) {
            const r = await get(t, a, path);
            if (r.status === 429) queue.push(path);
            await sleep(200);
          }
        }),
        [0, 10],
      );
    },
  },
  // "growing intervals and slight random spread": backon's ExponentialBuilder::default() has jitter off.
  {
    does: 'is a Rust service on backon’s ExponentialBuilder::default() without .with_jitter() (1 s, 2 s), four reads each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), backon()));
        await sleep(5_000);
      }
    },
  },
  // The same sentence: Perl LWP::UserAgent::Determined's default timing "1,3,15" (growing, no spread).
  {
    does: 'is a Perl service on LWP::UserAgent::Determined with its default timing("1,3,15"), three reads each through three 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(1, 4)) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await retrying(sleep, () => get(t, a, path), lwpDetermined));
        await sleep(5_000);
      }
    },
  },
  // "retry only after rate_limited and internal": a read refused 400 sent again with a fresh
  // Idempotency-Key each time, as if the key made it a new request (on a read the key means nothing).
  {
    does: 'repeats an audit-log read refused 400 (limit=-5) twice with growing waits, stamping a fresh Idempotency-Key on each',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1056);
      const r = await retrying(
        sleeper(t),
        () => api(t, a, 'GET', '/audit-log?limit=-5', { key: stampedKey(random, 'get') }),
        guidanceWait(random),
        { max: 2, retryIf: (x) => x.status === 400 },
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "A sample client makes up to 4 attempts": a capability check (a POST that changes nothing) is
  // still one operation; six retries of it through an outage are seven attempts.
  {
    does: 'retries a capability check through six 500s on the guidance schedule (no cap): seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1057);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 6 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      ok(
        'check',
        await retrying(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), guidanceWait(random), {
          max: 6,
        }),
      );
    },
  },
  // "the same key with the same content returns the same response again": a pool on one token whose
  // failed create is retried by another worker that mints its own key for the job.
  {
    does: 'runs a worker pool on one token where the create failed with 500 by one worker is retried 700 ms later by another, which mints its own key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Pool Handover Pantry' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      let failed = false;
      await fleet(
        t,
        [
          async () => {
            failed = (await api(t, a, 'POST', '/connections', { body, key: 'worker-a-0001' })).status === 500;
          },
          async (sleep) => {
            await sleep(700);
            if (failed) ok('retry', await api(t, a, 'POST', '/connections', { body, key: 'worker-b-0001' }));
          },
        ],
        [0, 0],
      );
      if (!failed) throw new Error('the create did not fail');
    },
  },
  // "respect the wait time of the response": Retry-After read as milliseconds (2 → 2 ms), then its own
  // 300 ms floor.
  {
    does: 'reads Retry-After as milliseconds (Retry-After: 2 → 2 ms) and so retries two 429ed reads after its 300 ms floor',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1059);
      for (const [route, path] of READS.slice(2, 4)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        ok(
          path,
          await retrying(
            sleep,
            () => get(t, a, path),
            (_n, x) => Math.max(x.retryAfterMs / 1000, 300 + Math.floor(random() * 100)),
            { ignoreRetryAfter: true },
          ),
        );
        await sleep(3_000);
      }
    },
  },
];
