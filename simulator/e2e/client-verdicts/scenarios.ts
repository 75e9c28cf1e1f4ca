import type { Target } from '../harness.ts';
import { careful, cycle, referenceClient } from './reference-client.ts';

export const CONNECTION = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Harbour Kitchen Deck',
  capabilities: ['orders.read', 'payments.refund'],
};

const fault = (t: Target, f: Parameters<Target['sandbox']['control']['addFault']>[0]) => t.sandbox.control.addFault(f);

/** Two GET operations that each fail twice with 500 before succeeding: two retry sequences with three attempts. */
async function twoBackoffSequences(t: Target, c: ReturnType<typeof referenceClient>) {
  fault(t, { kind: 'internal', route: 'listProviders', count: 2 });
  await c.call('GET', '/providers');
  fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
  await c.call('GET', '/connectors');
}

/** A stream read of two messages, cut by the server after them, then one reconnect. */
async function streamWithCut(t: Target, c: ReturnType<typeof referenceClient>) {
  fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
  await c.stream({
    reconnects: 1,
    count: 3,
    onOpen(i) {
      // Two messages on the first connection (then the cut), the third once the client is back.
      for (const event of i === 0 ? (['order.created', 'order.paid'] as const) : (['order.paid'] as const))
        t.sandbox.control.trigger({ event, tenant: c.tenant });
    },
  });
}

/**
 * The careful client: every duty the interface gives clients, exercised once or more: a create that is
 * committed and then answered 500 (retried with the same key), a 429 with Retry-After, two backoff
 * sequences, a stream resumed after a cut, Service-Version on every call, one token throughout.
 */
export async function carefulClient(t: Target) {
  const c = referenceClient(t);
  fault(t, { kind: 'commit_then_fail', route: 'createConnection', count: 1 });
  const created = await c.call('POST', '/connections', { body: CONNECTION, key: true });
  if (created.status !== 200 || created.json?.meta?.replayed !== true)
    throw new Error(`the retry should have got the committed outcome back: ${created.status}`);
  fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 1, count: 1 });
  await c.call('GET', '/capabilities');
  await twoBackoffSequences(t, c);
  await streamWithCut(t, c);
}

/** Each careless client breaks exactly one duty: the rule it must fail, and what it does. */
export const CARELESS: { rule: string; does: string; run(t: Target): Promise<void> }[] = [
  {
    rule: 'retry.only-after-failure',
    does: 'retries a 404 with the same key',
    async run(t) {
      const c = referenceClient(t, { retryOn: (s) => s !== 200, maxAttempts: 2 });
      await c.call('POST', '/connections', { body: { ...CONNECTION, connectorId: 'no-such-connector' }, key: true });
    },
  },
  {
    rule: 'retry.same-key-and-content',
    does: 'retries a committed-then-failed create with a new key',
    async run(t) {
      const c = referenceClient(t, { newKeyPerAttempt: true });
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', count: 1 });
      await c.call('POST', '/connections', { body: CONNECTION, key: true });
    },
  },
  {
    rule: 'idempotency.one-key-one-content',
    does: 'sends one key with changed content',
    async run(t) {
      const c = referenceClient(t);
      await c.call('POST', '/connections', { body: CONNECTION, key: 'reused-key-0001' });
      await c.call('POST', '/connections', { body: { ...CONNECTION, scopeLabel: 'Other' }, key: 'reused-key-0001' });
    },
  },
  {
    rule: 'retry.respects-retry-after',
    does: 'retries a 429 without waiting Retry-After',
    async run(t) {
      const c = referenceClient(t, { waitMs: (n, _ra, random) => 100 * 2 ** n + random() * 100 });
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
      await c.call('GET', '/capabilities');
    },
  },
  {
    rule: 'retry.growing-waits',
    does: 'waits as long before its third attempt as before its second',
    async run(t) {
      // A draw per operation, none per retry: spread between operations, the same wait within one.
      const c = referenceClient(t, {
        waitMs: (_n, _ra, random) => 300 + Math.floor(random() * 200),
        random: cycle([0.9, 0.9, 0.1, 0.1, 0.5, 0.5]),
      });
      // Three operations: a randomly spread client fails when most of its pairs are equal waits.
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        await c.call('GET', path);
      }
    },
  },
  {
    rule: 'retry.spread',
    does: 'doubles its waits without any random spread',
    async run(t) {
      const c = referenceClient(t, { random: () => 0 });
      await twoBackoffSequences(t, c);
      // Four sequences: the median of twelve same-position differences is not swayed by a delayed call.
      for (const [route, path] of [
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ]) {
        fault(t, { kind: 'internal', route, count: 2 });
        await c.call('GET', path!);
      }
    },
  },
  {
    rule: 'retry.attempt-limit',
    does: 'makes six attempts',
    async run(t) {
      const c = referenceClient(t, { maxAttempts: 6, waitMs: (n) => 150 * (n + 1) });
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      await c.call('GET', '/providers');
    },
  },
  {
    rule: 'stream.resume-from-last-read',
    does: 'reconnects to the stream without Last-Event-ID',
    async run(t) {
      await streamWithCut(t, referenceClient(t, { resumeWithCursor: false }));
    },
  },
  {
    rule: 'version.service-version-sent',
    does: 'sends no Service-Version',
    async run(t) {
      const c = referenceClient(t, { serviceVersion: false });
      await c.call('GET', '/providers');
      await c.call('GET', '/connectors');
    },
  },
  {
    rule: 'auth.no-browser-credentials',
    does: 'calls with its token from a browser page (Origin)',
    async run(t) {
      await referenceClient(t, { origin: 'https://partner.example' }).call('GET', '/providers');
    },
  },
  {
    rule: 'auth.token-reused',
    does: 'fetches a new token for every call',
    async run(t) {
      const c = referenceClient(t, { tokenPerCall: true });
      for (const path of ['/providers', '/connectors', '/capabilities']) await c.call('GET', path);
    },
  },
];

/** The rules the careful client exercises (each must pass, none may fail). */
export const CAREFUL_EXERCISES = [
  'retry.only-after-failure',
  'retry.same-key-and-content',
  'idempotency.one-key-one-content',
  'retry.respects-retry-after',
  'retry.growing-waits',
  'retry.spread',
  'retry.attempt-limit',
  'stream.resume-from-last-read',
  'version.service-version-sent',
  'auth.no-browser-credentials',
  'auth.token-reused',
];

export { careful, cycle };
