// The catalog (a DynamoDB table loaded at deploy time): providers, connectors, capabilities, and the
// capability check. Catalog ids are slugs chosen by the catalog team; records carry a few fields of ivy's own.
import type { Call } from './http-kit.ts';
import { ApiError, ok, parseObject } from './http-kit.ts';
import { environment, text } from './validate.ts';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const CAPABILITIES: Capability[] = [
  {
    id: 'menu.sync',
    label: 'Menu synchronisation',
    critical: false,
    idempotencyRequired: false,
    description: 'Push menus.',
  },
  {
    id: 'orders.ingest',
    label: 'Order intake',
    critical: true,
    idempotencyRequired: true,
    description: 'Receive orders.',
  },
  {
    id: 'payments.capture',
    label: 'Payment capture',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture payments.',
  },
  {
    id: 'payments.refund',
    label: 'Refunds',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund payments.',
  },
  {
    id: 'tables.status',
    label: 'Table status',
    critical: false,
    idempotencyRequired: false,
    description: 'Read table state.',
  },
  {
    id: 'delivery.dispatch',
    label: 'Courier dispatch',
    critical: false,
    idempotencyRequired: true,
    description: 'Book couriers.',
  },
];

export const PROVIDERS = [
  {
    id: 'tillwise',
    name: 'Tillwise',
    category: 'pos',
    summary: 'Point of sale for restaurants',
    region: 'eu-central-1',
  },
  { id: 'coinpath', name: 'Coinpath', category: 'payments', summary: 'Card payments and refunds', region: 'eu-west-1' },
  { id: 'rushcart', name: 'Rushcart', category: 'delivery', summary: 'Courier network', region: 'eu-central-1' },
  { id: 'seatly', name: 'Seatly', category: 'pos', summary: 'Table and floor management', region: 'eu-north-1' },
];

export const CONNECTORS = [
  {
    id: 'tillwise-pos',
    providerId: 'tillwise',
    name: 'Tillwise POS',
    category: 'pos',
    capabilities: ['menu.sync', 'orders.ingest', 'tables.status'],
  },
  {
    id: 'coinpath-cards',
    providerId: 'coinpath',
    name: 'Coinpath Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'rushcart-courier',
    providerId: 'rushcart',
    name: 'Rushcart Courier',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.ingest'],
  },
  { id: 'seatly-floor', providerId: 'seatly', name: 'Seatly Floor', category: 'pos', capabilities: ['tables.status'] },
  {
    id: 'tillwise-pay',
    providerId: 'tillwise',
    name: 'Tillwise Pay',
    category: 'payments',
    capabilities: ['payments.capture'],
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connectorById(id: string) {
  return CONNECTORS.find((c) => c.id === id);
}

export function listProviders(call: Call): void {
  const category = call.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(call, { count: providers.length, providers });
}

export function listConnectors(call: Call): void {
  const capability = call.query.get('capability');
  const providerId = call.query.get('providerId');
  const category = call.query.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  ok(call, { count: connectors.length, connectors });
}

export function listCapabilities(call: Call): void {
  ok(call, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

/** POST /capabilities: a decision; an unknown connector is 404 (the entry does not exist). */
export function checkCapability(raw: string): { status: number; body: unknown } {
  const body = parseObject(raw);
  const connectorId = text(body, 'connectorId', 2, 120) as string;
  const capability = text(body, 'capability', 2, 120) as string;
  const env = environment(body, 'environment', false) ?? 'sandbox';
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'The connector does not exist.', `connectorId: ${connectorId}`);
  const known = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const decision = {
    connectorId,
    capability,
    allowed: offered && known !== undefined,
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? false,
    reason: !known ? 'unknown_capability' : offered ? 'offered_by_connector' : 'not_offered_by_connector',
  };
  return { status: 200, body: { decision, environment: env } };
}
