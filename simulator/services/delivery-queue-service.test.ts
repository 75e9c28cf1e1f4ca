import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createDeliveryLog, type Delivery } from '../state/delivery-log.ts';
import { createDeliveryQueueStore } from '../state/delivery-queue-store.ts';
import type { QueuedDelivery } from '../state/ports/delivery-queue.ts';
import type { DeliveryLogRepository } from '../state/ports/deliveries.ts';
import { createDeliveryQueue } from './delivery-queue-service.ts';
import { networkLike } from '../test-support/network-like.ts';

const record = (id: string): Delivery => ({
  id,
  receiverId: 'wh_1',
  tenant: 't',
  eventId: `evt_${id}`,
  eventType: 'order.created',
  url: 'http://127.0.0.1:9/hook',
  status: 'pending',
  attempts: [],
  sequences: 1,
  createdAt: '2026-07-01T00:00:00.000Z',
  updatedAt: '2026-07-01T00:00:00.000Z',
  body: '{}',
});

describe.each([
  ['memory log (answers at once)', false],
  ['promise-answering log', true],
])('delivery queue over a %s', (_name, async) => {
  const setup = (maxQueue = 2) => {
    let now = Date.UTC(2026, 6, 1, 12);
    const memory = createDeliveryLog();
    const failed: Delivery[] = [];
    const succeeded: Delivery[] = [];
    const queue = createDeliveryQueue<QueuedDelivery>({
      repository: createDeliveryQueueStore(),
      log: async ? networkLike(memory) : memory,
      clock: createClock(() => now),
      maxQueue,
      onFailure: (d) => failed.push(d),
      onSuccess: (d) => succeeded.push(d),
    });
    const job = (id: string): QueuedDelivery => {
      memory.insert(record(id));
      return { record: record(id) };
    };
    const flush = () => new Promise((resolve) => setTimeout(resolve, 10));
    return { queue, memory, failed, succeeded, job, flush, tick: (ms: number) => (now += ms) };
  };

  it('evicts the oldest pending delivery when full: failed as queue_full, retry cancelled, callback told', async () => {
    const { queue, memory, failed, job, flush } = setup();
    let cancelled = 0;
    const a = { ...job('a'), cancelRetry: () => void cancelled++ };
    queue.enqueue(a);
    queue.enqueue(job('b'));
    queue.enqueue(job('c'));
    expect(queue.jobs.size()).toBe(2);
    expect(queue.jobs.pending('a')).toBeUndefined();
    expect(a.stopped).toBe('queue_full');
    expect(cancelled).toBe(1);
    expect(failed.map((d) => [d.id, d.status, d.error])).toEqual([['a', 'failed', 'queue_full']]);
    await flush();
    expect(memory.get('a')).toMatchObject({
      status: 'failed',
      error: 'queue_full',
      updatedAt: '2026-07-01T12:00:00.000Z',
    });
  });

  it('an evicted delivery with an attempt in flight drains: aborted, out of the queue, not yet finished', () => {
    const { queue, failed, job } = setup(1);
    const aborted: string[] = [];
    const a = { ...job('a'), abort: (tag: 'queue_full' | 'shutdown') => void aborted.push(tag) };
    queue.enqueue(a);
    queue.enqueue(job('b'));
    expect(aborted).toEqual(['queue_full']);
    expect(queue.jobs.draining('a')).toBe(a);
    expect(queue.jobs.pending('a')).toBeUndefined();
    expect(failed).toEqual([]);
    expect(queue.jobs.all().map((j) => j.record.id)).toEqual(['b', 'a']);
  });

  it('each save is a new record stamped with the clock; error and nextAttemptAt survive only when given', async () => {
    const { queue, memory, succeeded, job, tick, flush } = setup();
    const a = job('a');
    queue.enqueue(a);
    const first = a.record;
    queue.save(a, { nextAttemptAt: '2026-07-01T12:00:05.000Z', error: 'timeout' });
    expect(a.record).not.toBe(first);
    expect(first.nextAttemptAt).toBeUndefined();
    tick(5000);
    queue.save(a, { sequences: 2 });
    expect(a.record).toMatchObject({ sequences: 2, updatedAt: '2026-07-01T12:00:05.000Z' });
    expect(a.record.error).toBeUndefined();
    expect(a.record.nextAttemptAt).toBeUndefined();
    queue.finishFor(a, 'succeeded');
    expect(succeeded.map((d) => d.status)).toEqual(['succeeded']);
    expect(queue.jobs.size()).toBe(0);
    await flush();
    expect(memory.get('a')).toMatchObject({ status: 'succeeded', sequences: 2 });
  });
});

describe('delivery queue rules', () => {
  it('refuses a bound that is not a positive integer', () => {
    const deps = { repository: createDeliveryQueueStore(), log: createDeliveryLog(), clock: createClock() };
    expect(() => createDeliveryQueue({ ...deps, maxQueue: 0 })).toThrow(RangeError);
  });

  it('a failing callback or a failing log write does not stop the queue', async () => {
    const memory = createDeliveryLog();
    const log = { ...memory, update: () => Promise.reject(new Error('store down')) } as DeliveryLogRepository;
    const queue = createDeliveryQueue<QueuedDelivery>({
      repository: createDeliveryQueueStore(),
      log,
      clock: createClock(),
      maxQueue: 1,
      onFailure: () => {
        throw new Error('broken callback');
      },
    });
    queue.enqueue({ record: record('a') });
    expect(() => queue.enqueue({ record: record('b') })).not.toThrow();
    expect(queue.jobs.pending('b')?.record.id).toBe('b');
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
