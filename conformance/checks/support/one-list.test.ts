import { describe, expect, it } from 'vitest';
import { receiverIdOf, resourceNameId, theOneList } from './one-list.ts';

describe('the list of records in an answer whose field names are not shown', () => {
  it('takes the named list, else the one list in data (as before)', () => {
    expect(theOneList({ deliveries: [1], other: [2] }, 'deliveries')).toEqual([1]);
    expect(theOneList({ items: [{ id: 'a' }], total: 1 }, 'deliveries')).toEqual([{ id: 'a' }]);
    expect(theOneList({ a: [1], b: [2] }, 'entries')).toBeUndefined();
  });

  it('finds the one list of records nested in an object of data (data.page.items)', () => {
    const items = [{ id: 'd1', event_id: 'evt_1' }];
    expect(theOneList({ receiver: { id: 'wh_1' }, page: { items, total: 1 } }, 'deliveries')).toBe(items);
    const entries = [{ sequence: 2, target: { id: 'c1' } }];
    expect(theOneList({ page: { size: 1, entries }, proof: { type: 'Ed25519Signature2020' } }, 'entries')).toBe(
      entries,
    );
  });

  it('makes no choice between two nested lists', () => {
    expect(theOneList({ a: { x: [{ id: 1 }] }, b: { y: [{ id: 2 }] } }, 'entries')).toBeUndefined();
    expect(theOneList({ a: { x: 'no list' } }, 'entries')).toBeUndefined();
  });
});

describe("the receiver's id in a registration answer whose fields are not shown", () => {
  const url = 'http://127.0.0.1:9/r';
  it('reads data.id, else the one nested id (data.webhook.id)', () => {
    expect(receiverIdOf({ id: 'wh_0', url }, url)).toBe('wh_0');
    // An id under a name of its own, at the top: the one naming the receiver, else the only one.
    expect(receiverIdOf({ subscriptionId: 'WHS-1', callbackUrl: url, tenantId: 't1' }, url)).toBe('WHS-1');
    expect(receiverIdOf({ webhook_id: 'w-2', url }, url)).toBe('w-2');
    expect(receiverIdOf({ tenantId: 't1', ownerId: 'o1', url }, url)).toBeUndefined();
    expect(receiverIdOf({ webhook: { id: 'wh_1', events: [] }, receiver: { url } }, url)).toBe('wh_1');
    expect(receiverIdOf({ result: { webhook: { id: 'wh_2' } } }, url)).toBe('wh_2');
  });

  it('of several ids, takes the object holding the registered url; none: undefined', () => {
    expect(receiverIdOf({ tenant: { id: 't1' }, receiver: { id: 'wh_3', url } }, url)).toBe('wh_3');
    expect(receiverIdOf({ tenant: { id: 't1' }, owner: { id: 'u1' } }, url)).toBeUndefined();
    expect(receiverIdOf({ url }, url)).toBeUndefined();
  });
});

describe('an id carried by a resource name (AIP-122) instead of an id field', () => {
  it("reads the last segment of `name: 'webhooks/whk_1'` (and of a nested parent's); an id field still wins", () => {
    expect(receiverIdOf({ name: 'webhooks/whk_1', url: 'http://x' }, 'http://x')).toBe('whk_1');
    expect(resourceNameId('projects/p-1/webhooks/whk_2')).toBe('whk_2');
    expect(receiverIdOf({ id: 'wh_9', name: 'webhooks/whk_1' }, 'http://x')).toBe('wh_9');
  });
  it('takes no plain name, a path-like text or an empty segment for an id', () => {
    for (const v of ['Kitchen receiver', '/webhooks/whk_1', 'webhooks/', 'webhooks/a b', 42])
      expect(resourceNameId(v)).toBeUndefined();
  });
});
