import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import type { ReceivedDelivery } from '../../client/webhook-receiver.ts';
import type { CheckContext } from '../../runner/check.ts';
import { namesValue } from './names-value.ts';
import { deliveryIds, describeIds, eventIdsOf, findLogged, sameEvent } from './webhook-evidence.ts';

const delivery = (body: unknown, headers: Record<string, string> = {}) =>
  ({ rawBody: Buffer.from(JSON.stringify(body).replaceAll('/', '\\/')), headers }) as unknown as ReceivedDelivery;
const ctx = (idHeader: string | null) =>
  ({ deployment: { webhookDeliveryIdHeader: idHeader } }) as unknown as CheckContext;
const log = (data: unknown) => ({ json: { ok: true, data } }) as unknown as Exchange;

describe('finding a delivery (its payload and the delivery log are not shown)', () => {
  it('finds an id in a body whose JSON escapes characters (`\\/`, as PHP writes it)', () => {
    const d = delivery({ id: 'evt_1', data: { connection: { id: 'connections/c00000001' } } });
    expect(d.rawBody.includes('connections/c00000001')).toBe(false);
    expect(namesValue(d.rawBody, 'connections/c00000001')).toBe(true);
    expect(namesValue(d.rawBody, 'connections/c00000002')).toBe(false);
    expect(namesValue(Buffer.from('not json connections/c1'), 'connections/c1')).toBe(true);
  });

  it('reads a JSON string that carries the event base64-encoded (Pub/Sub push, CloudEvents data_base64)', () => {
    const event = JSON.stringify({ type: 'connection.created', data: { connectionId: 'c-7f3k2m9x1q' } });
    const push = (data: string) =>
      Buffer.from(JSON.stringify({ message: { data, messageId: '1' }, subscription: 's' }));
    expect(namesValue(push(Buffer.from(event).toString('base64')), 'c-7f3k2m9x1q')).toBe(true);
    expect(namesValue(push(Buffer.from(event).toString('base64url')), 'c-7f3k2m9x1q')).toBe(true);
    expect(namesValue(push(Buffer.from(event).toString('base64')), 'c-other00000')).toBe(false);
  });

  it('reads ids counted per table and served as text like numbers: "1" in webhookId names no delivery (cherry)', () => {
    const d = delivery({ event: 'connection.created' }, { 'x-cherry-delivery': '1' });
    const page = log({
      data: [9, 8, 7].map((id) => ({ id: String(id), webhookId: '1', attempt: 1, status: 'delivered' })),
    });
    expect(findLogged(ctx('x-cherry-delivery'), page, d, '1')).toBeUndefined();
    const mine = log({ data: [{ id: '1', webhookId: '1', attempt: 1 }] });
    expect(findLogged(ctx('x-cherry-delivery'), mine, d, '1')).toMatchObject({ id: '1' });
    const listedAs = log({
      data: [
        { id: 'a', deliveryIds: ['1'] },
        { id: 'b', deliveryIds: ['2'] },
      ],
    });
    expect(findLogged(ctx('x-cherry-delivery'), listedAs, d, '9')).toMatchObject({ id: 'a' });
  });

  it('finds numbered deliveries by the header naming the delivery, not by a receiver or event number (alder)', () => {
    // Delivery 1 of receiver 1, whose body's id 1 is the delivery counter's; every entry holds webhook_id 1.
    const entries = [10, 9, 1].map((id) => ({ id, webhook_id: 1, attempts: 1, response_status: 200 }));
    const d = delivery({ id: 1, event: 'connection.created', webhook_id: 1 }, { 'webhook-delivery': '1' });
    expect(deliveryIds(d)[0]).toMatchObject({ value: '1', from: 'header webhook-delivery', namesDelivery: true });
    for (const declared of [null, 'webhook-delivery'])
      expect(findLogged(ctx(declared), log({ deliveries: entries }), d, '1')).toMatchObject({ id: 1 });
    // A body's number is the event's: it names an entry holding it as its event id, never one whose own id it is.
    const numbered = delivery({ id: 10, type: 'connection.created' });
    const other = log({
      deliveries: [
        { id: 10, event_id: 3 },
        { id: 11, event_id: 10 },
      ],
    });
    expect(findLogged(ctx(null), other, numbered, 'wh_1')).toMatchObject({ id: 11 });
  });

  it("finds the delivery in a log of the deployment's own shape, by the event id in any field", () => {
    const d = delivery({ specversion: '1.0', id: 'evt_1', type: 'connection.created' });
    const snake = log({
      webhook_id: 'wh_1',
      items: [
        { id: 'dlv_9', event_id: 'evt_0' },
        { id: 'dlv_1', event_id: 'evt_1' },
      ],
    });
    expect(findLogged(ctx(null), snake, d)).toEqual({ id: 'dlv_1', event_id: 'evt_1' });
    const simulator = log({ webhookId: 'wh_1', count: 1, deliveries: [{ id: 'dlv_1', eventId: 'evt_1' }] });
    expect(findLogged(ctx(null), simulator, d)).toEqual({ id: 'dlv_1', eventId: 'evt_1' });
    expect(findLogged(ctx(null), log({ items: [{ id: 'dlv_9', event_id: 'evt_0' }] }), d)).toBeUndefined();
  });

  it('finds it by the delivery-id header the profile names', () => {
    const d = delivery({ id: 'evt_x' }, { 'x-delivery': 'dlv_2' });
    expect(findLogged(ctx('X-Delivery'), log({ items: [{ id: 'dlv_2' }] }), d)).toEqual({ id: 'dlv_2' });
  });

  it('takes a delivery triggered again as the same event by its event id, whatever else its body states', () => {
    const first = delivery({ specversion: '1.0', id: 'evt_1', deliveryattempt: 1 });
    expect(sameEvent(first)(delivery({ specversion: '1.0', id: 'evt_1', deliveryattempt: 2 }))).toBe(true);
    expect(sameEvent(first)(delivery({ specversion: '1.0', id: 'evt_2', deliveryattempt: 1 }))).toBe(false);
    const plain = { rawBody: Buffer.from('not json'), headers: {} } as unknown as ReceivedDelivery;
    expect(sameEvent(plain)(plain)).toBe(true);
  });

  it('finds a batch (a JSON array of events) by the id of any of its events, in a list field of the entry', () => {
    const batch = delivery([
      { specversion: '1.0', id: 'evt_a', type: 'connection.created' },
      { specversion: '1.0', id: 'evt_b', type: 'connection.created' },
    ]);
    const attempts = log({
      value: [
        { id: 'att_2', messageId: 'msg_9', eventIds: ['evt_x'] },
        { id: 'att_1', messageId: 'msg_1', eventIds: ['evt_a', 'evt_b'] },
      ],
    });
    // Before, only a body's top-level id counted and only a field's own value: the batch was "in no entry".
    expect(findLogged(ctx(null), attempts, batch)).toMatchObject({ id: 'att_1' });
    expect(deliveryIds(batch).map((i) => i.value)).toEqual(['evt_a', 'evt_b']);
  });

  it('finds a binary-mode delivery by an id header (ce-id, webhook-id, x-event-id), not by one the log shares with every entry', () => {
    const binary = delivery(
      { id: 'conn_1', state: 'Accepted' },
      { 'ce-id': 'evt_7f3k2m9x', 'x-hook-id': 'wh_receiver_1', 'ce-type': 'connection.created', 'x-attempt-id': '1' },
    );
    const attempts = log({
      value: [
        { id: 'att_2', webhookId: 'wh_receiver_1', messageId: 'evt_other00' },
        { id: 'att_1', webhookId: 'wh_receiver_1', messageId: 'evt_7f3k2m9x' },
      ],
    });
    expect(findLogged(ctx(null), attempts, binary, 'wh_receiver_1')).toMatchObject({ id: 'att_1' });
    // The receiver's id, in every entry, names no delivery: without ce-id nothing is found.
    const { 'ce-id': _, ...withoutEventId } = binary.headers;
    expect(findLogged(ctx(null), attempts, delivery({ id: 'conn_1' }, withoutEventId))).toBeUndefined();
    expect(describeIds(deliveryIds(binary))).toBe(
      'the body conn_1, header ce-id evt_7f3k2m9x, header x-hook-id wh_receiver_1',
    );
    expect(describeIds([])).toMatch(/none/);
  });
  it('reads an event id named eventId or event_id where the body has no id', () => {
    expect(eventIdsOf(delivery({ eventId: 'evt_42', type: 'x' }))).toEqual(['evt_42']);
    expect(eventIdsOf(delivery([{ event_id: 'e1' }, { event_id: 'e2' }]))).toEqual(['e1', 'e2']);
  });
});
