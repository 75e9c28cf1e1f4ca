// The fixed catalog (providers, connectors, capabilities): ids are readable slugs, the way a seeded
// Postgres table of a Rust service would hold them. Extra fields (`slug`, `region`) are allowed additions.
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  region: string;
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
  {
    id: 'prv_northwind_pay',
    name: 'Northwind Pay',
    category: 'payments',
    summary: 'Card and wallet payments.',
    region: 'eu',
  },
  {
    id: 'prv_tablehop',
    name: 'TableHop',
    category: 'reservations',
    summary: 'Table reservations for venues.',
    region: 'eu',
  },
  {
    id: 'prv_kitchenline',
    name: 'KitchenLine',
    category: 'pos',
    summary: 'Point of sale and kitchen display.',
    region: 'eu',
  },
  {
    id: 'prv_parcelpost',
    name: 'ParcelPost',
    category: 'delivery',
    summary: 'Courier delivery of orders.',
    region: 'us',
  },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Create reservations', critical: false, idempotencyRequired: true },
  { id: 'orders.sync', label: 'Synchronise orders', critical: true, idempotencyRequired: true },
  { id: 'menu.publish', label: 'Publish the menu', critical: false, idempotencyRequired: false },
  { id: 'delivery.dispatch', label: 'Dispatch a courier', critical: true, idempotencyRequired: true },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'cnr_northwind_cards',
    providerId: 'prv_northwind_pay',
    name: 'Northwind Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'cnr_tablehop_book',
    providerId: 'prv_tablehop',
    name: 'TableHop Booking',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'cnr_kitchenline_pos',
    providerId: 'prv_kitchenline',
    name: 'KitchenLine POS',
    category: 'pos',
    capabilities: ['orders.sync', 'menu.publish', 'payments.capture'],
  },
  {
    id: 'cnr_parcelpost_courier',
    providerId: 'prv_parcelpost',
    name: 'ParcelPost Courier',
    category: 'delivery',
    capabilities: ['delivery.dispatch'],
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
