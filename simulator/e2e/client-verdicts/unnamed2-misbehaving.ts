import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { sleepOn, type Target } from '../harness.ts';
import {
  api,
  auth,
  CONNECTION,
  create,
  fault,
  http10,
  publish,
  type Reply,
  readStream,
  READS,
  withWaits,
} from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';

/** A misbehaving client of the second round, with the sandbox options it needs (if any). */
export interface FaultyClient2 extends FaultyClient {
  options?: SandboxOptions;
}

const always = () => true;

/** A stream cut after three messages, then one reconnect with what `resumeWith` makes of the last id read. */
async function cutThenResume(t: Target, resumeWith: (last: number) => number | undefined, kind = 'stream_cut') {
  const a = auth(t);
  if (kind === 'stream_cut') fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
  else fault(t, { kind: 'stream_restart', afterMessages: 3, downMs: 400, count: 1 });
  const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
  await sleepOn(t, kind === 'stream_cut' ? 100 : 600);
  const cursor = resumeWith(ids.at(-1) ?? 0);
  await readStream(t, a, { ...(cursor === undefined ? {} : { cursor }), idleMs: 400 });
}

/** Round 2 of the misbehaving clients: faults of kinds the first round did not show. */
export const MISBEHAVING_2: FaultyClient2[] = [
  {
    does: 'answers a 429 (Retry-After: 2) with three copies at once over separate connections after 300 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      const first = await api(t, a, 'GET', '/connectors');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleepOn(t, 300);
      await Promise.all([0, 1, 2].map(() => http10(t, a, 'GET', '/connectors')));
    },
  },
  {
    does: 'reseeds its jitter per operation, so every retry sequence waits the same',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      // Five sequences: twenty comparisons, so a busy machine delaying some waits does not decide.
      for (const [route, path] of READS) {
        // The same seed each time: the "random" amounts are 37 and 91 ms in every sequence.
        const seeded = [37, 91];
        fault(t, { kind: 'internal', route, count: 2 });
        await withWaits(t, () => api(t, a, 'GET', path), [100 + (seeded[0] ?? 0), 200 + (seeded[1] ?? 0)]);
      }
    },
  },
  {
    does: 'halves its waits (400, 200, 100 ms) on every operation',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 3 });
        await withWaits(t, () => api(t, a, 'GET', path), [400, 200, 100]);
      }
    },
  },
  {
    does: 'doubles its waits from 200 ms but ignores Retry-After: 2',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 2 });
      await withWaits(t, () => api(t, a, 'GET', '/providers'), [200, 400]);
    },
  },
  {
    does: 'retries a create refused with 409 capability_denied, same key, as if it were transient',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, capabilities: ['orders.read', 'no.such.capability'] };
      const r = await withWaits(
        t,
        () => api(t, a, 'POST', '/connections', { body, key: 'denied-retry-0001' }),
        [200, 400],
        (s) => s === 409,
      );
      if (r.json?.error?.code !== 'capability_denied') throw new Error(`answered ${r.json?.error?.code}`);
    },
  },
  {
    does: 'makes five attempts of one read over four minutes (waits of 20, 40, 60, 90 s on the sandbox clock)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      const waits = [20, 40, 60, 90].map((s) => () => {
        void t.sandbox.control.advanceClock(s);
        return 0;
      });
      await withWaits(t, () => api(t, a, 'GET', '/providers'), waits);
    },
  },
  {
    does: 'sends one configured key with every create',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 3; i++) await create(t, a, 'partner-static-key', { ...CONNECTION, scopeLabel: `Venue ${i}` });
    },
  },
  {
    does: 'resumes a cut stream with Last-Event-ID one past the last number read',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutThenResume(t, (last) => last + 1),
  },
  {
    does: 'resumes a cut stream from the last message it processed, one behind what it read',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutThenResume(t, (last) => last - 1),
  },
  {
    does: 'reconnects without a cursor after a server restart',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutThenResume(t, () => undefined, 'stream_restart'),
  },
  {
    does: 'keeps polling with its token after it expired: five 401s at its cadence',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      for (let i = 0; i < 8; i++) {
        if (i === 3) await t.sandbox.control.advanceClock(120);
        await api(t, a, 'GET', '/connections');
        await sleepOn(t, 180);
      }
    },
  },
  {
    does: 'hammers a gateway 503 with immediate retries, ignoring its Retry-After',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listProviders', retryAfterSeconds: 1, count: 3 });
      await withWaits(t, () => api(t, a, 'GET', '/providers'), [0, 0, 0]);
    },
  },
  {
    does: 'drops the Idempotency-Key when it retries a create after a 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      await withWaits(
        t,
        (n) => api(t, a, 'POST', '/connections', { body: CONNECTION, ...(n ? {} : { key: 'dropped-key-0001' }) }),
        [300],
      );
    },
  },
  {
    does: 'sends a CORS preflight announcing Authorization before its calls',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await t.fetch(`${t.baseUrl}/api/public/v1/connections`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.partner.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization, x-service-tenant',
        },
      });
      await api(t, a, 'GET', '/connections');
    },
  },
  {
    does: 'sends Service-Version on its reads but not on its creates',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers');
      await api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'no-version-0001', version: null });
      await api(t, a, 'GET', '/connections');
    },
  },
  {
    does: 'runs six workers in parallel that each fetch a new token for every call',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let round = 0; round < 3; round++)
        await Promise.all(Array.from({ length: 6 }, () => api(t, auth(t), 'GET', '/providers')));
    },
  },
  {
    does: 'repeats an audit-log read refused with 400 (limit=many), with growing waits',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const r: Reply = await withWaits(t, () => api(t, a, 'GET', '/audit-log?limit=many'), [150, 900], always);
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  {
    does: 'repeats a read refused with 403 at the second address (a failover that is no remedy)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const alt = { ...t, baseUrl: t.altBaseUrl };
      await withWaits(t, (n) => api(n ? alt : t, a, 'GET', '/connections'), [200], always);
    },
  },
  {
    does: 'writes a new timestamp into the body when it retries a create under the same key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
      await withWaits(
        t,
        (n) =>
          api(t, a, 'POST', '/connections', {
            body: { ...CONNECTION, scopeLabel: `Deck sent at attempt ${n}` },
            key: 'stamped-body-0001',
          }),
        [300],
      );
    },
  },
];
