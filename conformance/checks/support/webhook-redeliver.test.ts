import { describe, expect, it } from 'vitest';
import type { ReceivedDelivery } from '../../client/webhook-receiver.ts';
import { entryId } from './webhook-redeliver.ts';

const delivery = (headers: Record<string, string>) =>
  ({
    rawBody: Buffer.from(JSON.stringify({ id: 'evt_1', type: 'connection.created' })),
    headers,
  }) as unknown as ReceivedDelivery;

describe("a delivery log entry's own id (webhooks.redelivery)", () => {
  const d = delivery({ 'x-acacia-delivery-id': 'fde003e9-0001', 'x-acacia-webhook-id': 'wh-7' });
  it('takes id, else a field named as a delivery or attempt id', () => {
    expect(entryId({ id: 'dlv_1', deliveryId: 'other' }, d, undefined, 'wh-7')).toBe('dlv_1');
    expect(entryId({ deliveryId: 'fde003e9-0001', status: 'sent' }, d, undefined, 'wh-7')).toBe('fde003e9-0001');
    expect(entryId({ attempt_id: 'a-9', status: 'sent' }, d, undefined, 'wh-7')).toBe('a-9');
    expect(entryId({ attemptId: 'ATT-1', deliveryId: 'DLV-1' }, d, undefined, 'wh-7')).toBe('DLV-1');
  });
  it("takes a log entry's own id under another name (logId), never the event's or the receiver's id (ginkgo)", () => {
    expect(entryId({ logId: 1, eventId: 1000, webhookId: 7, status: 'sent' }, d, undefined, '7')).toBe('1');
    expect(entryId({ eventId: 'evt_1', webhook_id: 'wh-7', record_id: 'r-2' }, d, undefined, 'wh-7')).toBe('r-2');
  });
  it("else the delivery's id header value the entry holds, never the receiver's id", () => {
    expect(entryId({ ref: 'fde003e9-0001', hook: 'wh-7' }, d, undefined, 'wh-7')).toBe('fde003e9-0001');
    expect(entryId({ hook: 'wh-7', status: 'sent' }, d, undefined, 'wh-7')).toBeUndefined();
  });
});
