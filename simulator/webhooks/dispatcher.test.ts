import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestReceiver } from '../e2e/test-receiver.ts';
import { createClock } from '../lib/clock.ts';
import { createManualScheduler } from '../lib/scheduler.ts';
import { createDeliveryLog, type Delivery } from '../state/delivery-log.ts';
import type { DeliveryLogRepository } from '../state/ports/deliveries.ts';
import { createDispatcher, type DispatcherOptions, type WebhookReceiver } from './dispatcher.ts';

const SECRET = 'whsec_dispatcher_test_secret';
const T0 = Date.UTC(2026, 6, 1, 12, 0, 0);
let rx: Awaited<ReturnType<typeof startTestReceiver>>;
let clockNow = () => T0;
let idSeq = 0;

beforeAll(async () => {
  rx = await startTestReceiver({ secret: SECRET, now: () => clockNow() });
});
afterAll(() => rx.close());

function setup(opts: DispatcherOptions = {}) {
  const clock = createClock(() => T0);
  clockNow = () => clock.now();
  const scheduler = createManualScheduler(clock);
  const failed: Delivery[] = [];
  const dispatcher = createDispatcher({
    clock,
    scheduler,
    // The receiver here checks against the test clock: sign by it too (real time is the default).
    realNow: () => clock.now(),
    random: () => 0.5,
    newId: () => `dlv_${++idSeq}`,
    onFailure: (d) => failed.push(d),
    ...opts,
  });
  /** Runs every attempt and retry to the end without waiting on the wall clock. */
  const drain = async () => {
    for (let i = 0; i < 100; i++) {
      await dispatcher.settled();
      if (!scheduler.runNext()) return;
    }
    throw new Error('did not drain');
  };
  return { clock, scheduler, dispatcher, failed, drain };
}
const receiver = (path: string, id = 'wh_1', secret = SECRET): WebhookReceiver => ({
  id,
  url: rx.url(path),
  secret,
  tenant: 'harbour-kitchens',
});
const event = (id = 'evt_1') => ({
  id,
  type: 'connection.created',
  payload: { connectionId: 'con_1', state: 'pending' },
});

describe('webhook dispatcher', () => {
  it('POSTs signed JSON that a receiver verifies, with event, delivery and attempt headers', async () => {
    const { dispatcher, drain } = setup();
    const seen = rx.nextCall();
    const pending = dispatcher.deliver(receiver('/ok'), event());
    expect(pending).toMatchObject({
      id: expect.stringMatching(/^dlv_\d+$/),
      status: 'pending',
      attempts: [],
      receiverId: 'wh_1',
      eventId: 'evt_1',
      eventType: 'connection.created',
    });
    const call = await seen;
    await drain();
    expect(call.verified).toEqual({ ok: true, timestamp: Math.floor(T0 / 1000) });
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['ncs-event']).toBe('connection.created');
    expect(call.headers['ncs-delivery']).toBe(pending.id);
    expect(call.headers['ncs-attempt']).toBe('1');
    expect(JSON.parse(call.body)).toEqual({
      id: 'evt_1',
      type: 'connection.created',
      createdAt: new Date(T0).toISOString(),
      tenant: 'harbour-kitchens',
      data: event().payload,
    });
    const done = (await dispatcher.log.get(pending.id))!;
    expect(done).toMatchObject({ status: 'succeeded', sequences: 1, body: call.body });
    expect(done.attempts).toEqual([
      {
        n: 1,
        sequence: 1,
        at: new Date(T0).toISOString(),
        status: 204,
        durationMs: expect.any(Number),
        signatureHeader: expect.any(String),
        signature: expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
      },
    ]);
    expect(done).not.toHaveProperty('error');
    expect(JSON.stringify(done)).not.toContain(SECRET);
    expect(dispatcher.pending()).toBe(0);
  });

  it('a receiver with another secret refuses the delivery: a failed attempt (http_400)', async () => {
    const { dispatcher, drain } = setup({ maxAttempts: 1 });
    const d = dispatcher.deliver(receiver('/ok', 'wh_1', 'whsec_other'), event());
    await drain();
    expect(await dispatcher.log.get(d.id)).toMatchObject({
      status: 'failed',
      error: 'http_400',
      attempts: [{ status: 400, error: 'http_400' }],
    });
  });

  it('retries a failing receiver with exponential backoff and jitter, then fails and reports it once', async () => {
    const { dispatcher, drain, failed, scheduler } = setup();
    const d = dispatcher.deliver(receiver('/status/500'), event());
    await dispatcher.settled();
    expect(await dispatcher.log.get(d.id)).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(T0 + 1_100).toISOString(),
    });
    expect(scheduler.pending()).toBe(1);
    await drain();
    const done = (await dispatcher.log.get(d.id))!;
    expect(done.status).toBe('failed');
    expect(done.error).toBe('http_500');
    expect(done).not.toHaveProperty('nextAttemptAt');
    expect(done.attempts.map((a) => [a.n, a.status, a.error])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, 500, 'http_500']),
    );
    // random() = 0.5 -> 10 % jitter on 1 s, 2 s, 4 s, 8 s.
    const offsets = done.attempts.map((a) => Date.parse(a.at) - T0);
    expect(offsets).toEqual([0, 1_100, 3_300, 7_700, 16_500]);
    expect(failed.map((f) => f.id)).toEqual([d.id]);
    expect(rx.calls.filter((c) => c.headers['ncs-delivery'] === d.id).map((c) => c.headers['ncs-attempt'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  });

  it('succeeds on a later attempt', async () => {
    const { dispatcher, drain, failed } = setup();
    const d = dispatcher.deliver(receiver('/flaky/2'), event());
    await drain();
    expect(await dispatcher.log.get(d.id)).toMatchObject({
      status: 'succeeded',
      attempts: [{ status: 500 }, { status: 500 }, { status: 204 }],
    });
    expect(failed).toEqual([]);
  });

  it('times out a receiver that does not answer (injected time, no waiting)', async () => {
    const { dispatcher, scheduler } = setup({ maxAttempts: 1, timeoutMs: 5_000 });
    const seen = rx.nextCall();
    const d = dispatcher.deliver(receiver('/hang'), event());
    await seen;
    scheduler.advance(4_999);
    expect((await dispatcher.log.get(d.id))!.attempts).toEqual([]);
    scheduler.advance(1);
    await dispatcher.settled();
    expect(await dispatcher.log.get(d.id)).toMatchObject({
      status: 'failed',
      error: 'timeout',
      attempts: [{ n: 1, durationMs: 5_000, error: 'timeout' }],
    });
  });

  it('records a reset connection and does not follow redirects', async () => {
    const { dispatcher, drain } = setup({ maxAttempts: 1 });
    const reset = dispatcher.deliver(receiver('/reset'), event('evt_r'));
    const before = rx.calls.filter((c) => c.path === '/ok').length;
    const redirect = dispatcher.deliver(receiver('/redirect'), event('evt_d'));
    await drain();
    expect((await dispatcher.log.get(reset.id))!.error).toMatch(/^network: /);
    expect((await dispatcher.log.get(reset.id))!.attempts[0]).not.toHaveProperty('status');
    expect(await dispatcher.log.get(redirect.id)).toMatchObject({
      status: 'failed',
      error: 'redirect_not_followed',
      attempts: [{ status: 302 }],
    });
    expect(rx.calls.filter((c) => c.path === '/ok').length).toBe(before);
  });

  it('logs and redelivers through a delivery log that answers with promises (a store across the network)', async () => {
    const memory = createDeliveryLog();
    const later = <T>(v: T) => new Promise<T>((resolve) => setImmediate(() => resolve(v)));
    const log: DeliveryLogRepository = {
      insert: (d) => later(memory.insert(d)),
      update: (d) => later(memory.update(d)),
      get: (id) => later(memory.get(id)),
      listByReceiver: (id, o) => later(memory.listByReceiver(id, o)),
      countByReceiver: (id) => later(memory.countByReceiver(id)),
      removeReceiver: (id) => later(memory.removeReceiver(id)),
      clear: () => later(memory.clear()),
    };
    const { dispatcher, drain } = setup({ maxAttempts: 1, log });
    const d = dispatcher.deliver(receiver('/status/503'), event());
    await drain();
    await later(undefined);
    expect(await dispatcher.log.get(d.id)).toMatchObject({ status: 'failed', error: 'http_503' });
    const again = dispatcher.redeliver(d.id, receiver('/ok'));
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toMatchObject({ status: 'pending', sequences: 2 });
    await drain();
    await later(undefined);
    expect(memory.get(d.id)).toMatchObject({ status: 'succeeded', attempts: [{ status: 503 }, { status: 204 }] });
    expect(await dispatcher.redeliver('dlv_missing', receiver('/ok'))).toBeUndefined();
  });

  it('a delivery-log write that throws (a full disk) is reported; the delivery goes on, no unhandled rejection', async () => {
    const memory = createDeliveryLog();
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const reported: unknown[] = [];
    const full = (): never => {
      throw new Error('database or disk is full');
    };
    const log: DeliveryLogRepository = { ...memory, insert: full, update: full };
    try {
      const { dispatcher, drain } = setup({ maxAttempts: 2, log, onStoreError: (e) => reported.push(e) });
      const seen = rx.nextCall();
      const d = dispatcher.deliver(receiver('/ok'), event());
      await drain();
      expect((await seen).path).toBe('/ok');
      await new Promise((resolve) => setImmediate(resolve));
      expect(d.id).toMatch(/^dlv_/);
      expect(dispatcher.pending()).toBe(0);
      expect(reported.length).toBeGreaterThan(1);
      expect(String(reported[0])).toContain('disk is full');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('by default a failing delivery log gives one process warning naming the cause, not the record', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const memory = createDeliveryLog();
    const full = (): never => {
      throw new Error('database or disk is full');
    };
    try {
      const { dispatcher, drain } = setup({ maxAttempts: 1, log: { ...memory, update: full } });
      dispatcher.deliver(receiver('/ok'), event());
      dispatcher.deliver(receiver('/status/503'), event('evt_2'));
      await drain();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/delivery-log write failed.*disk is full/);
      expect(String(warn.mock.calls[0]?.[0])).not.toContain(rx.url('/ok'));
    } finally {
      warn.mockRestore();
    }
  });

  it('redelivers a failed delivery on request as a new recorded sequence', async () => {
    const { dispatcher, drain, failed } = setup({ maxAttempts: 2 });
    const d = dispatcher.deliver(receiver('/status/503'), event());
    await drain();
    expect(await dispatcher.log.get(d.id)).toMatchObject({ status: 'failed', error: 'http_503' });
    const again = dispatcher.redeliver(d.id, receiver('/ok'))!;
    expect(again).toMatchObject({ status: 'pending', sequences: 2, url: rx.url('/ok') });
    expect(again).not.toHaveProperty('error');
    await drain();
    const done = (await dispatcher.log.get(d.id))!;
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a) => [a.n, a.sequence, a.status])).toEqual([
      [1, 1, 503],
      [2, 1, 503],
      [3, 2, 204],
    ]);
    expect(failed).toHaveLength(1);
    expect(dispatcher.redeliver('dlv_unknown', receiver('/ok'))).toBeUndefined();
    expect(() => dispatcher.redeliver(d.id, receiver('/ok', 'wh_other'))).toThrow(/does not belong/);
  });

  it('a redelivery during a retry wait starts at once; during an attempt it follows that attempt', async () => {
    const { dispatcher, drain, scheduler } = setup({ maxAttempts: 3 });
    const d = dispatcher.deliver(receiver('/status/500'), event());
    await dispatcher.settled();
    expect(scheduler.pending()).toBe(1);
    dispatcher.redeliver(d.id, receiver('/status/500'));
    expect(scheduler.pending()).toBe(1); // the retry wait was replaced by the new attempt's timeout
    await dispatcher.settled();
    expect((await dispatcher.log.get(d.id))!.attempts.map((a) => [a.sequence, Date.parse(a.at) - T0])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    // Now redeliver while an attempt is in flight.
    scheduler.runNext();
    dispatcher.redeliver(d.id, receiver('/ok'));
    await drain();
    const done = (await dispatcher.log.get(d.id))!;
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a) => [a.sequence, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [2, 500],
      [3, 204],
    ]);
  });

  it('bounds the queue: the oldest pending delivery fails with queue_full (waiting or in flight)', async () => {
    const { dispatcher, drain, failed, scheduler } = setup({ maxQueue: 2, maxAttempts: 3 });
    const a = dispatcher.deliver(receiver('/status/500'), event('evt_a'));
    const b = dispatcher.deliver(receiver('/status/500'), event('evt_b'));
    await dispatcher.settled();
    const c = dispatcher.deliver(receiver('/ok'), event('evt_c'));
    expect(dispatcher.pending()).toBe(2);
    expect(await dispatcher.log.get(a.id)).toMatchObject({ status: 'failed', error: 'queue_full' });
    expect(failed.map((f) => f.id)).toEqual([a.id]);
    await dispatcher.settled();
    // b waits for a retry; c is done. A hanging delivery in flight is evicted too.
    const seen = rx.nextCall();
    const h = dispatcher.deliver(receiver('/hang'), event('evt_h'));
    await seen;
    dispatcher.deliver(receiver('/ok'), event('evt_i'));
    dispatcher.deliver(receiver('/ok'), event('evt_j'));
    await dispatcher.settled();
    expect(await dispatcher.log.get(b.id)).toMatchObject({ status: 'failed', error: 'queue_full' });
    expect(await dispatcher.log.get(h.id)).toMatchObject({
      status: 'failed',
      error: 'queue_full',
      attempts: [{ error: 'queue_full' }],
    });
    expect((await dispatcher.log.get(c.id))!.status).toBe('succeeded');
    await drain();
    expect(scheduler.pending()).toBe(0);
    expect(dispatcher.pending()).toBe(0);
  });

  it('a delivery evicted mid-attempt and redelivered at once ends as the new sequence says', async () => {
    const { dispatcher, drain } = setup({ maxQueue: 1 });
    const seen = rx.nextCall();
    const h = dispatcher.deliver(receiver('/hang'), event('evt_h'));
    await seen;
    const other = dispatcher.deliver(receiver('/ok'), event('evt_o'));
    dispatcher.redeliver(h.id, receiver('/ok'));
    await drain();
    const done = (await dispatcher.log.get(h.id))!;
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a) => [a.sequence, a.error ?? a.status])).toEqual([
      [1, 'queue_full'],
      [2, 204],
    ]);
    expect(await dispatcher.log.get(other.id)).toMatchObject({ status: 'failed', error: 'queue_full' });
  });

  it('keeps at most the configured deliveries per receiver in its log', async () => {
    const { dispatcher, drain } = setup({ log: createDeliveryLog({ maxPerReceiver: 3 }) });
    for (let i = 0; i < 5; i++) dispatcher.deliver(receiver('/ok'), event(`evt_${i}`));
    await drain();
    expect((await dispatcher.log.listByReceiver('wh_1')).map((d) => d.eventId)).toEqual(['evt_4', 'evt_3', 'evt_2']);
  });

  it('close() aborts attempts in flight (recorded as shutdown) and refuses new work', async () => {
    const { dispatcher } = setup();
    const seen = rx.nextCall();
    const d = dispatcher.deliver(receiver('/hang'), event());
    await seen;
    await dispatcher.close();
    expect(await dispatcher.log.get(d.id)).toMatchObject({ status: 'pending', attempts: [{ error: 'shutdown' }] });
    expect(() => dispatcher.deliver(receiver('/ok'), event())).toThrow(/closed/);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => createDispatcher({ maxQueue: 0 })).toThrow(RangeError);
    expect(() => createDispatcher({ maxAttempts: 0 })).toThrow(RangeError);
  });
});
