import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createEventBus, type DomainEvent } from '../state/domain-events.ts';
import { createWebhookReceiverStore } from '../state/webhook-receivers.ts';
import { createReceiverService, publicReceiver, ReceiverLimitError } from './receiver-service.ts';
import { networkLike } from '../test-support/network-like.ts';

const setup = (opts: { async?: boolean; max?: number } = {}) => {
  const events = createEventBus();
  const seen: DomainEvent[] = [];
  events.on((e) => seen.push(e));
  const memory = createWebhookReceiverStore();
  const service = createReceiverService({
    repository: opts.async ? networkLike(memory) : memory,
    clock: createClock(() => 1_000_000),
    events,
    signatureHeader: 'X-Sig',
    ...(opts.max ? { maxPerTenant: opts.max } : {}),
  });
  return { service, seen };
};
const input = { url: 'http://127.0.0.1:9/hook', events: ['order.paid', 'order.paid', 'order.created'] };
const caller = { actor: 'harbour-backend', requestId: 'req_1', at: 2_000_000 };

describe('receiver service', () => {
  it('registers a receiver with a fresh secret, each event once, and announces webhook.created without the secret', async () => {
    const { service, seen } = setup();
    const { receiver, secret } = await service.create('t1', input, caller);
    expect(secret).toMatch(/^whsec_/);
    expect(receiver).toMatchObject({ tenant: 't1', events: ['order.paid', 'order.created'], secret });
    expect(receiver.createdAt).toBe(new Date(2_000_000).toISOString());
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      type: 'webhook.created',
      tenant: 't1',
      actor: 'harbour-backend',
      requestId: 'req_1',
      at: 2_000_000,
      target: { type: 'webhook', id: receiver.id },
      data: { webhook: publicReceiver(receiver, 'X-Sig') },
    });
    expect(JSON.stringify(seen[0])).not.toContain(secret);
    const again = await service.create('t1', input, caller);
    expect(again.secret).not.toBe(secret);
  });

  it('refuses a receiver past the limit of its tenant, and counts each tenant alone', async () => {
    const { service, seen } = setup({ max: 2 });
    await service.create('t1', input, caller);
    await service.create('t1', input, caller);
    expect(() => service.create('t1', input, caller)).toThrow(ReceiverLimitError);
    await service.create('t2', input, caller);
    expect(await service.count()).toBe(3);
    expect(seen).toHaveLength(3);
    const ids = (await service.list('t1')).map((r) => r.id);
    expect(await service.remove('t1', ids[0] ?? '')).toBe(true);
    expect((await service.create('t1', input, caller)).receiver.tenant).toBe('t1');
  });

  it('works the same over a repository that answers with promises', async () => {
    const { service, seen } = setup({ async: true, max: 1 });
    const created = service.create('t1', input, caller);
    expect(created).toBeInstanceOf(Promise);
    const { receiver } = await created;
    await expect(service.create('t1', input, caller)).rejects.toThrow(ReceiverLimitError);
    expect(await service.get('t1', receiver.id)).toEqual(receiver);
    expect(await service.get('t2', receiver.id)).toBeUndefined();
    expect((await service.subscribedTo('t1', 'order.paid')).map((r) => r.id)).toEqual([receiver.id]);
    expect(seen.map((e) => e.type)).toEqual(['webhook.created']);
  });
});
