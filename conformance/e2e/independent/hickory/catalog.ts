// hickory's catalog: providers, connectors and capabilities. Provider and connector ids are nanoid-shaped but
// derived from their names, so they are stable across restarts; capability ids are readable dotted names.
import { stableId } from './util.ts';

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  website: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  status: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const CAPABILITIES: Capability[] = [
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'List and fetch orders.',
  },
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Place orders.',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise the menu',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menus.',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture.',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refunds.',
  },
  {
    id: 'inventory.read',
    label: 'Read stock levels',
    critical: false,
    idempotencyRequired: false,
    description: 'Stock.',
  },
  {
    id: 'reservations.manage',
    label: 'Manage table reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Tables.',
  },
];

const provider = (name: string, category: string, summary: string): Provider => ({
  id: stableId(`provider:${name}`),
  name,
  category,
  summary,
  website: `https://${name.toLowerCase().replace(/[^a-z]/g, '')}.example`,
});

export const PROVIDERS: Provider[] = [
  provider('Lieferwerk', 'delivery', 'Delivery platform for restaurants.'),
  provider('Kassenhaus', 'pos', 'Point-of-sale systems for hospitality.'),
  provider('Zahlfix', 'payments', 'Card and wallet payments.'),
  provider('Tischlein', 'reservations', 'Table booking.'),
];

const connector = (p: Provider, name: string, capabilities: string[]): Connector => ({
  id: stableId(`connector:${name}`),
  providerId: p.id,
  name,
  category: p.category,
  capabilities,
  status: 'available',
});

const [lieferwerk, kassenhaus, zahlfix, tischlein] = PROVIDERS as [Provider, Provider, Provider, Provider];

export const CONNECTORS: Connector[] = [
  connector(lieferwerk, 'Lieferwerk Orders', ['orders.read', 'orders.write', 'menu.sync']),
  connector(lieferwerk, 'Lieferwerk Menu', ['menu.sync']),
  connector(kassenhaus, 'Kassenhaus POS', ['orders.read', 'orders.write', 'inventory.read', 'payments.capture']),
  connector(zahlfix, 'Zahlfix Payments', ['payments.capture', 'payments.refund']),
  connector(tischlein, 'Tischlein Bookings', ['reservations.manage', 'orders.read']),
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
