// The static catalog. Provider and connector ids are UUIDv4-shaped, derived from their names so that
// they stay the same across restarts; capability ids are dotted names, as a partner would type them.
import { createHash } from 'node:crypto';

function uuidFrom(name: string): string {
  const h = createHash('sha256').update(`fern:${name}`).digest('hex');
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const capabilities: Capability[] = [
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'list and fetch orders',
  },
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'submit new orders',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'capture authorised payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'refund captured payments',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: false,
    description: 'push menu changes',
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch couriers',
    critical: false,
    idempotencyRequired: true,
    description: 'book a courier',
  },
];

export const providers = [
  { id: uuidFrom('p:tillworks'), name: 'Tillworks', category: 'pos', summary: 'Point-of-sale systems', country: 'DE' },
  {
    id: uuidFrom('p:paynest'),
    name: 'Paynest',
    category: 'payments',
    summary: 'Card and wallet payments',
    country: 'NL',
  },
  { id: uuidFrom('p:rushroute'), name: 'Rushroute', category: 'delivery', summary: 'Courier dispatch', country: 'AT' },
];

const [tillworks, paynest, rushroute] = providers.map((p) => p.id) as [string, string, string];

export const connectors = [
  {
    id: uuidFrom('c:tillworks-cloud'),
    providerId: tillworks,
    name: 'Tillworks Cloud',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'available',
  },
  {
    id: uuidFrom('c:tillworks-lite'),
    providerId: tillworks,
    name: 'Tillworks Lite',
    category: 'pos',
    capabilities: ['orders.read'],
    status: 'available',
  },
  {
    id: uuidFrom('c:paynest-gateway'),
    providerId: paynest,
    name: 'Paynest Gateway',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
    status: 'available',
  },
  {
    id: uuidFrom('c:rushroute-api'),
    providerId: rushroute,
    name: 'Rushroute API',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.read'],
    status: 'beta',
  },
];

export function capability(id: string) {
  return capabilities.find((c) => c.id === id);
}
export function connector(id: string) {
  return connectors.find((c) => c.id === id);
}
