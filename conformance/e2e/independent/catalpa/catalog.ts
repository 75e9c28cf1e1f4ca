// The catalog of providers, connectors and capabilities. Ids are upper-case UUIDs derived from the names
// (name-based, like UUID v5), so they are stable across restarts and the same on both base addresses.
import { createHash } from 'node:crypto';

export function nameUuid(name: string): string {
  const h = createHash('sha1').update(`catalpa:${name}`).digest('hex');
  const v = `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((Number.parseInt(h[16] ?? '0', 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  return v.toUpperCase();
}

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const CAPABILITIES: Capability[] = [
  { id: 'ORDERS_READ', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'ORDERS_WRITE', label: 'Create and change orders', critical: true, idempotencyRequired: true },
  { id: 'PAYMENTS_CAPTURE', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'MENU_PUBLISH', label: 'Publish menus', critical: false, idempotencyRequired: true },
  { id: 'INVENTORY_SYNC', label: 'Synchronise inventory', critical: false, idempotencyRequired: false },
  { id: 'REFUNDS_ISSUE', label: 'Issue refunds', critical: true, idempotencyRequired: true },
];

export const PROVIDERS = [
  {
    id: nameUuid('p:northwind'),
    name: 'Northwind POS',
    category: 'pos',
    summary: 'Point-of-sale terminals for venues.',
    status: 'ACTIVE',
  },
  {
    id: nameUuid('p:payflow'),
    name: 'PayFlow',
    category: 'payments',
    summary: 'Card and wallet payments.',
    status: 'ACTIVE',
  },
  {
    id: nameUuid('p:shelfwise'),
    name: 'Shelfwise',
    category: 'inventory',
    summary: 'Stock keeping for kitchens.',
    status: 'ACTIVE',
  },
];

const [northwind, payflow, shelfwise] = PROVIDERS.map((p) => p.id) as [string, string, string];

export const CONNECTORS = [
  {
    id: nameUuid('c:northwind-orders'),
    providerId: northwind,
    name: 'Northwind Orders',
    category: 'pos',
    capabilities: ['ORDERS_READ', 'ORDERS_WRITE', 'MENU_PUBLISH'],
  },
  {
    id: nameUuid('c:northwind-menu'),
    providerId: northwind,
    name: 'Northwind Menu',
    category: 'pos',
    capabilities: ['MENU_PUBLISH'],
  },
  {
    id: nameUuid('c:payflow-cards'),
    providerId: payflow,
    name: 'PayFlow Cards',
    category: 'payments',
    capabilities: ['PAYMENTS_CAPTURE', 'REFUNDS_ISSUE'],
  },
  {
    id: nameUuid('c:shelfwise-sync'),
    providerId: shelfwise,
    name: 'Shelfwise Sync',
    category: 'inventory',
    capabilities: ['INVENTORY_SYNC', 'ORDERS_READ'],
  },
];

export const capabilityById = (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
