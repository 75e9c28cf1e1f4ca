// rowan's catalog: fixed records a Django fixture would load. Ids are slugs, as the team's models use SlugField.
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  website: string | null;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const PROVIDERS: Provider[] = [
  { id: 'tillcraft', name: 'Tillcraft', category: 'pos', summary: 'Point of sale for restaurants', website: null },
  { id: 'larder-hub', name: 'Larder Hub', category: 'inventory', summary: 'Stock and purchasing', website: null },
  { id: 'paywell', name: 'Paywell', category: 'payments', summary: 'Card payments and payouts', website: null },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'tillcraft-pos-cloud',
    providerId: 'tillcraft',
    name: 'Tillcraft POS Cloud',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'larder-hub-stock',
    providerId: 'larder-hub',
    name: 'Larder Hub Stock',
    category: 'inventory',
    capabilities: ['stock.read', 'menu.sync'],
  },
  {
    id: 'paywell-terminal',
    providerId: 'paywell',
    name: 'Paywell Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Write orders', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: true },
  { id: 'stock.read', label: 'Read stock levels', critical: false, idempotencyRequired: false },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
