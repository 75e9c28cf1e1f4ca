// The read-only catalog: providers, connectors and capabilities, and capability decisions. Catalog ids are
// UUIDv7 seeded from the record's name, so they are stable across restarts (clients may hard-code them).
import { uuidv7 } from './http-util.ts';

const EPOCH = Date.parse('2026-01-15T09:00:00Z');
const stable = (prefix: string, name: string) => `${prefix}_${uuidv7(EPOCH, name)}`;

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const CAPABILITIES: Capability[] = [
  {
    id: 'menu.publish',
    label: 'Publish menus',
    critical: false,
    idempotencyRequired: false,
    description: 'Push menu changes to the channel.',
  },
  {
    id: 'order.ingest',
    label: 'Receive orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Take orders from the channel.',
  },
  {
    id: 'order.status',
    label: 'Report order status',
    critical: false,
    idempotencyRequired: true,
    description: 'Send order state changes back.',
  },
  {
    id: 'payment.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture authorised payments.',
  },
  {
    id: 'payment.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund captured payments.',
  },
  {
    id: 'table.reserve',
    label: 'Reserve tables',
    critical: false,
    idempotencyRequired: true,
    description: 'Book tables for guests.',
  },
  {
    id: 'loyalty.accrue',
    label: 'Accrue loyalty points',
    critical: false,
    idempotencyRequired: false,
    description: 'Credit points for a visit.',
  },
];

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  website: string;
}

export const PROVIDERS: Provider[] = [
  {
    name: 'Forkline Delivery',
    category: 'delivery',
    summary: 'Delivery marketplace with menu sync.',
    website: 'https://forkline.example',
  },
  {
    name: 'Tallypay',
    category: 'payments',
    summary: 'Card-present and online payments.',
    website: 'https://tallypay.example',
  },
  {
    name: 'Seatwise',
    category: 'reservations',
    summary: 'Table reservations and waitlists.',
    website: 'https://seatwise.example',
  },
  {
    name: 'Stampcard',
    category: 'loyalty',
    summary: 'Loyalty points and vouchers.',
    website: 'https://stampcard.example',
  },
].map((p) => ({ id: stable('prov', p.name), ...p }));

export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  createTime: string;
}

const pid = (name: string) => PROVIDERS.find((p) => p.name === name)?.id ?? '';

export const CONNECTORS: Connector[] = [
  {
    providerId: pid('Forkline Delivery'),
    name: 'Forkline Orders',
    category: 'delivery',
    capabilities: ['menu.publish', 'order.ingest', 'order.status'],
  },
  {
    providerId: pid('Forkline Delivery'),
    name: 'Forkline Menu Only',
    category: 'delivery',
    capabilities: ['menu.publish'],
  },
  {
    providerId: pid('Tallypay'),
    name: 'Tallypay Terminal',
    category: 'payments',
    capabilities: ['payment.capture', 'payment.refund'],
  },
  { providerId: pid('Seatwise'), name: 'Seatwise Tables', category: 'reservations', capabilities: ['table.reserve'] },
  { providerId: pid('Stampcard'), name: 'Stampcard Points', category: 'loyalty', capabilities: ['loyalty.accrue'] },
].map((c) => ({ id: stable('cnr', c.name), ...c, createTime: new Date(EPOCH).toISOString() }));

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export interface Decision {
  connectorId: string;
  capability: string;
  allowed: boolean;
  critical: boolean;
  idempotencyRequired: boolean;
  reason: string;
}

/** Allowed exactly when the connector offers the capability; the reason is an UPPER_SNAKE code with a sentence. */
export function decide(conn: Connector, capId: string): Decision {
  const cap = capability(capId);
  const base = {
    connectorId: conn.id,
    capability: capId,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
  };
  if (!cap) return { ...base, allowed: false, reason: 'CAPABILITY_UNKNOWN: the capability is not in the catalog' };
  if (!conn.capabilities.includes(capId))
    return { ...base, allowed: false, reason: 'CAPABILITY_NOT_OFFERED: the connector does not offer this capability' };
  return { ...base, allowed: true, reason: 'CAPABILITY_OFFERED: the connector offers this capability' };
}

export function listProviders(q: URLSearchParams): Provider[] {
  const category = q.get('category');
  return PROVIDERS.filter((p) => !category || p.category === category);
}

export function listConnectors(q: URLSearchParams): Connector[] {
  const cap = q.get('capability');
  const prov = q.get('providerId');
  const category = q.get('category');
  return CONNECTORS.filter(
    (c) =>
      (!cap || c.capabilities.includes(cap)) &&
      (!prov || c.providerId === prov) &&
      (!category || c.category === category),
  );
}
