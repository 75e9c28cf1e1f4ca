import { randomInt } from 'node:crypto';

const VENUES = ['Quay Street', 'Old Town', 'Harbour Front', 'Market Hall'];
const ITEMS = [
  { sku: 'dish-risotto', name: 'Wild mushroom risotto', unitPrice: 1650 },
  { sku: 'drink-lemonade', name: 'House lemonade', unitPrice: 450 },
  { sku: 'dish-flatbread', name: 'Rosemary flatbread', unitPrice: 700 },
];

/**
 * An invented order payload for `ncs sandbox trigger` (amounts in minor units, EUR).
 * @example sampleOrderEvent('order.paid', Date.now())
 */
export function sampleOrderEvent(event: 'order.created' | 'order.paid', now: number): Record<string, unknown> {
  const lines = ITEMS.slice(0, 1 + randomInt(ITEMS.length)).map((i) => ({ ...i, quantity: 1 + randomInt(3) }));
  const total = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const order = {
    orderId: `ord_${now.toString(36)}${randomInt(1e6).toString(36)}`,
    venue: VENUES[randomInt(VENUES.length)],
    channel: 'pos',
    currency: 'EUR',
    total,
    lines,
    at: new Date(now).toISOString(),
  };
  return event === 'order.paid'
    ? { ...order, payment: { method: 'card', amount: total, capturedAt: new Date(now).toISOString() } }
    : order;
}
