// The catalog sycamore serves: providers, capabilities and connectors of a restaurant network (invented test
// data only: this is a sandbox). Extra fields are snake_case (`country_code`, `api_style`), the house style.

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const PROVIDERS = [
  {
    id: 'prv_lightspeed',
    name: 'Lightspeed',
    category: 'pos',
    summary: 'Point of sale for restaurants',
    country_code: 'NL',
  },
  { id: 'prv_adyen', name: 'Adyen', category: 'payments', summary: 'Card and wallet payments', country_code: 'NL' },
  {
    id: 'prv_deliveroo',
    name: 'Deliveroo',
    category: 'delivery',
    summary: 'Food delivery marketplace',
    country_code: 'GB',
  },
  {
    id: 'prv_opentable',
    name: 'OpenTable',
    category: 'reservations',
    summary: 'Table reservations',
    country_code: 'US',
  },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'List and read orders',
  },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true, description: 'Push orders' },
  {
    id: 'menu.sync',
    label: 'Synchronise menu',
    critical: false,
    idempotencyRequired: true,
    description: 'Menu upload',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refunds',
  },
  { id: 'tables.read', label: 'Read tables', critical: false, idempotencyRequired: false, description: 'Floor plan' },
  {
    id: 'bookings.write',
    label: 'Write bookings',
    critical: false,
    idempotencyRequired: true,
    description: 'Bookings',
  },
];

export const CONNECTORS = [
  {
    id: 'cnr_lightspeed_k',
    providerId: 'prv_lightspeed',
    name: 'Lightspeed K-Series',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    api_style: 'rest',
  },
  {
    id: 'cnr_adyen_terminal',
    providerId: 'prv_adyen',
    name: 'Adyen Terminal API',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    api_style: 'rest',
  },
  {
    id: 'cnr_deliveroo_orders',
    providerId: 'prv_deliveroo',
    name: 'Deliveroo Orders',
    category: 'delivery',
    capabilities: ['orders.read', 'menu.sync'],
    api_style: 'webhook',
  },
  {
    id: 'cnr_opentable_sync',
    providerId: 'prv_opentable',
    name: 'OpenTable Sync',
    category: 'reservations',
    capabilities: ['tables.read', 'bookings.write'],
    api_style: 'rest',
  },
];
