// The network's catalog: providers, connectors and capabilities (ids are readable slugs, as Firestore document ids
// chosen by the catalog team).
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
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture authorised payments.',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund captured payments.',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: false,
    description: 'Push menu changes.',
  },
  {
    id: 'tables.reserve',
    label: 'Reserve tables',
    critical: false,
    idempotencyRequired: true,
    description: 'Book tables.',
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Order a courier.',
  },
];

export const PROVIDERS = [
  {
    id: 'larchpay',
    name: 'LarchPay',
    category: 'payments',
    summary: 'Card and wallet payments.',
    region: 'europe-west3',
  },
  {
    id: 'tillhouse',
    name: 'Tillhouse',
    category: 'pos',
    summary: 'Point of sale for restaurants.',
    region: 'europe-west1',
  },
  {
    id: 'swiftcourier',
    name: 'Swift Courier',
    category: 'delivery',
    summary: 'Same-hour delivery.',
    region: 'europe-west4',
  },
  {
    id: 'tablebook',
    name: 'Tablebook',
    category: 'reservations',
    summary: 'Table reservations.',
    region: 'europe-west1',
  },
];

export const CONNECTORS = [
  {
    id: 'larchpay-checkout',
    providerId: 'larchpay',
    name: 'LarchPay Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'tillhouse-pos',
    providerId: 'tillhouse',
    name: 'Tillhouse POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'tillhouse-menu',
    providerId: 'tillhouse',
    name: 'Tillhouse Menu Feed',
    category: 'pos',
    capabilities: ['menu.sync'],
  },
  {
    id: 'swiftcourier-dispatch',
    providerId: 'swiftcourier',
    name: 'Swift Courier Dispatch',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.read'],
  },
  {
    id: 'tablebook-reservations',
    providerId: 'tablebook',
    name: 'Tablebook Reservations',
    category: 'reservations',
    capabilities: ['tables.reserve'],
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string) {
  return CONNECTORS.find((c) => c.id === id);
}
