import { sleepOn, type Target } from '../harness.ts';
import { type Auth, api, CONNECTION, fault, publish, type Reply, READS, readStream, withWaits } from './unnamed-kit.ts';

/** A client with a fault no other test names: it must fail exactly `fails`, with evidence. */
export interface FaultyClient {
  does: string;
  fails: string[];
  run(t: Target): Promise<void>;
}

const auth = (t: Target, client?: string, ttl?: number): Auth => t.sandbox.issueToken(client, ttl);
const always = () => true;

/** A stream cut after two messages, then one reconnect with what `resumeWith` makes of the last id read. */
async function cutThenResume(t: Target, resumeWith: (last: number) => { cursor?: number; asQuery?: boolean }) {
  const a = auth(t);
  fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
  const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
  await sleepOn(t, 100);
  await readStream(t, a, { ...resumeWith(ids.at(-1) ?? 0), idleMs: 400 });
}

export const MISBEHAVING: FaultyClient[] = [
  {
    does: 'repeats a capability check refused with 400, unchanged',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'x', capability: 'orders.read' };
      await withWaits(t, () => api(t, a, 'POST', '/capabilities', { body }), [200, 400], always);
    },
  },
  {
    does: 'repeats a read with its expired token after a 401',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      await api(t, a, 'GET', '/connectors');
      await t.sandbox.control.advanceClock(120);
      await withWaits(t, () => api(t, a, 'GET', '/providers'), [200, 400], always);
    },
  },
  {
    does: 'repeats a read for a tenant its access is not released for (403)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      await withWaits(t, () => api(t, a, 'GET', '/connections'), [200, 400], always);
    },
  },
  {
    does: 'repeats a create for an unknown connector (404), with a new key each time',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, connectorId: 'no-such-connector' };
      await withWaits(
        t,
        (n) => api(t, a, 'POST', '/connections', { body, key: `unknown-conn-${n}-0001` }),
        [200, 400],
        always,
      );
    },
  },
  {
    does: 'repeats a create refused with 428 without adding the key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      await withWaits(t, () => api(t, a, 'POST', '/connections', { body: CONNECTION }), [200, 400], always);
    },
  },
  {
    does: 'waits 500 ms after a 429 that said Retry-After: 1',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 1 });
      await withWaits(t, () => api(t, a, 'GET', '/connectors'), [500]);
    },
  },
  {
    does: 'retries immediately, three times (no wait at all)',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      await withWaits(t, () => api(t, a, 'GET', '/providers'), [0, 0, 0]);
    },
  },
  {
    does: 'waits the same 200 ms before every retry, plus a draw of up to 120 ms once per operation',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      for (const [route, path, jitter] of [
        ['listProviders', '/providers', 0],
        ['listConnectors', '/connectors', 120],
        ['listCapabilities', '/capabilities', 60],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        await withWaits(t, () => api(t, a, 'GET', path), [200 + jitter, 200 + jitter]);
      }
    },
  },
  {
    does: 'doubles its waits with one random offset drawn once at start-up (no spread between retries)',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const offset = 47;
      // Five sequences: ten comparisons per position, so a delay of the busy machine on some calls does not decide.
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 2 });
        await withWaits(t, () => api(t, a, 'GET', path), [100 + offset, 200 + offset]);
      }
    },
  },
  {
    does: 'makes five attempts of one create',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const waits = [0, 1, 2, 3].map((n) => 80 * 2 ** n + n * 13);
      await withWaits(t, () => api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'five-attempts-01' }), waits);
    },
  },
  {
    does: 'retries a create with a new key after its own timeout',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 900 });
      const attempt = (n: number) =>
        api(t, a, 'POST', '/connections', { body: CONNECTION, key: `timeout-new-${n}-0001`, timeoutMs: 300 });
      await withWaits(t, attempt, [300]);
      await sleepOn(t, 700); // the held original is observed when its connection drops
    },
  },
  {
    does: 'resumes a cut stream from 0',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutThenResume(t, () => ({ cursor: 0 })),
  },
  {
    does: 'resumes a cut stream with ?cursor= ahead of what it read',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutThenResume(t, (last) => ({ cursor: last + 3, asQuery: true })),
  },
  {
    does: 'opens the status stream from a browser page with its token',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers');
      await readStream(t, a, { headers: { origin: 'https://partner.example' }, idleMs: 200 });
    },
  },
  {
    does: 'fetches a new token every second call',
    fails: ['auth.token-reused'],
    async run(t) {
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        const a = auth(t);
        await api(t, a, 'GET', path);
        await api(t, a, 'GET', path);
      }
    },
  },
  {
    does: 'sends Service-Version with a date that is no published version',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers', { version: '2026-07-02' });
      await api(t, a, 'GET', '/connectors');
    },
  },
  {
    does: 'repeats a create refused with 409 idempotency_conflict, key and content unchanged',
    fails: ['idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'conflict-key-001' });
      const changed = { ...CONNECTION, scopeLabel: 'Changed afterwards' };
      await withWaits(
        t,
        () => api(t, a, 'POST', '/connections', { body: changed, key: 'conflict-key-001' }),
        [300],
        always,
      );
    },
  },
  {
    does: 'reuses a key for a second, different create after the first succeeded',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const r: Reply = await api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'reused-after-ok-1' });
      if (r.status !== 200) throw new Error(`create answered ${r.status}`);
      await api(t, a, 'POST', '/connections', {
        body: { ...CONNECTION, capabilities: ['orders.read'] },
        key: 'reused-after-ok-1',
      });
    },
  },
];
