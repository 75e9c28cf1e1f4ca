import { describe, expect, it } from 'vitest';
import { deliveryLogAmong, redeliverAmong } from './webhook-routes.ts';

const V = '/api/public/v1';
const get = (path: string, query?: string[]) => ({ method: 'GET', path, ...(query ? { query } : {}) });
const post = (path: string) => ({ method: 'POST', path });
/** Routes every deployment has beside its delivery log: none of them may be taken for it. */
const COMMON = [post(`${V}/webhooks`), get(`${V}/webhooks`), get(`${V}/webhooks/{id}`), post(`${V}/connections`)];

describe('the delivery log among published routes', () => {
  it.each([
    [`${V}/webhooks/{id}/deliveries`, `${V}/webhooks/{webhookId}/deliveries`],
    [`${V}/webhooks/{webhookId}/delivery-log`, `${V}/webhooks/{webhookId}/delivery-log`],
    [`${V}/webhooks/{subscription_id}/delivery-attempts`, `${V}/webhooks/{webhookId}/delivery-attempts`],
    [`${V}/webhooks/{webhookId}/attempts`, `${V}/webhooks/{webhookId}/attempts`],
    [`${V}/webhooks/{id}/outbox`, `${V}/webhooks/{webhookId}/outbox`],
    [`${V}/webhooks/{webhookId}/messages`, `${V}/webhooks/{webhookId}/messages`],
  ])('finds %s', (path, template) => {
    expect(deliveryLogAmong([...COMMON, get(path), get(`${path}/{deliveryId}`)])).toBe(template);
  });

  it('finds a log under a receiver whose own words call it the delivery log, whatever its segment', () => {
    const tasks = { ...get(`${V}/webhooks/{webhookId}/tasks`), text: 'delivery log of a webhook receiver' };
    expect(deliveryLogAmong([...COMMON, tasks])).toBe(`${V}/webhooks/{webhookId}/tasks`);
    expect(deliveryLogAmong([...COMMON, { ...tasks, text: 'tasks of a receiver' }])).toBeUndefined();
  });

  it('finds a log keyed by a query parameter naming the receiver', () => {
    expect(deliveryLogAmong([...COMMON, get(`${V}/webhook-deliveries`, ['limit', 'webhookId'])])).toBe(
      `${V}/webhook-deliveries?webhookId={webhookId}`,
    );
  });

  it('takes none when there is none, or when two routes could be it', () => {
    expect(deliveryLogAmong(COMMON)).toBeUndefined();
    // Messages not under a receiver are no delivery log.
    expect(deliveryLogAmong([...COMMON, get(`${V}/connections/{id}/messages`)])).toBeUndefined();
    expect(deliveryLogAmong([get(`${V}/webhook-deliveries`, ['limit'])])).toBeUndefined();
    expect(
      deliveryLogAmong([get(`${V}/webhooks/{id}/deliveries`), get(`${V}/webhooks/{id}/delivery-attempts`)]),
    ).toBeUndefined();
  });
});

describe('the re-trigger among published routes', () => {
  it.each([
    [
      `${V}/webhooks/{id}/deliveries/{deliveryId}/redeliver`,
      `${V}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`,
    ],
    [
      `${V}/webhooks/{id}/deliveries/{delivery_id}:redeliver`,
      `${V}/webhooks/{webhookId}/deliveries/{deliveryId}:redeliver`,
    ],
    [`${V}/webhook-deliveries/{id}/retry`, `${V}/webhook-deliveries/{deliveryId}/retry`],
    [`${V}/webhook-deliveries/{deliveryId}/resend`, `${V}/webhook-deliveries/{deliveryId}/resend`],
    [`${V}/webhooks/{id}/attempts/{attemptId}/resend`, `${V}/webhooks/{webhookId}/attempts/{deliveryId}/resend`],
    [`${V}/webhooks/{id}/outbox/{deliveryId}/requeue`, `${V}/webhooks/{webhookId}/outbox/{deliveryId}/requeue`],
    [`${V}/webhooks/{id}/messages/{messageId}/resend`, `${V}/webhooks/{webhookId}/messages/{deliveryId}/resend`],
    [`${V}/webhooks/{webhookId}/events/{eventId}/retry`, `${V}/webhooks/{webhookId}/events/{deliveryId}/retry`],
    [
      `${V}/webhooks/{webhookId}/exchanges/{exchangeId}/redeliver`,
      `${V}/webhooks/{webhookId}/exchanges/{deliveryId}/redeliver`,
    ],
  ])('finds %s', (path, template) => {
    expect(redeliverAmong([...COMMON, get(`${V}/webhooks/{id}/deliveries`), post(path)])).toBe(template);
  });

  it('does not take a verb on a receiver alone, or a verb under something else than a receiver', () => {
    expect(redeliverAmong([...COMMON, post(`${V}/webhooks/{id}/retry`)])).toBeUndefined();
    expect(redeliverAmong([...COMMON, post(`${V}/connections/{id}/events/{eventId}/retry`)])).toBeUndefined();
  });

  it('does not take a POST whose parameters all stand before the deliveries segment, or one with three', () => {
    expect(redeliverAmong([...COMMON, post(`${V}/webhooks/{id}/deliveries`)])).toBeUndefined();
    expect(redeliverAmong([post(`${V}/tenants/{t}/webhooks/{id}/deliveries/{d}/retry`)])).toBeUndefined();
  });

  it('takes none when two routes could be it', () => {
    expect(
      redeliverAmong([post(`${V}/webhook-deliveries/{id}/retry`), post(`${V}/webhook-deliveries/{id}/cancel`)]),
    ).toBeUndefined();
  });
});
