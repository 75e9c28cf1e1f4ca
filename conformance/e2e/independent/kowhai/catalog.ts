// The seeded catalog (Sequelize seeders in the team's repository): providers, connectors and capabilities.
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

export const PROVIDERS: Provider[] = [
  {
    id: 'pohutukawa-pos',
    name: 'Pohutukawa POS',
    category: 'pos',
    summary: 'Point of sale for venues',
    website: 'https://pos.example',
  },
  {
    id: 'tui-payments',
    name: 'Tui Payments',
    category: 'payments',
    summary: 'Card and wallet payments',
    website: 'https://pay.example',
  },
  {
    id: 'kea-delivery',
    name: 'Kea Delivery',
    category: 'delivery',
    summary: 'Courier marketplace',
    website: 'https://kea.example',
  },
  {
    id: 'rata-bookings',
    name: 'Rata Bookings',
    category: 'reservations',
    summary: 'Table reservations',
    website: 'https://rata.example',
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
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Place orders',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menu',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menu changes',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture authorised payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund captured payments',
  },
  {
    id: 'deliveries.track',
    label: 'Track deliveries',
    critical: false,
    idempotencyRequired: false,
    description: 'Courier positions',
  },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'Reservation book',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'pohutukawa-orders',
    providerId: 'pohutukawa-pos',
    name: 'Pohutukawa orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'available',
  },
  {
    id: 'pohutukawa-menu',
    providerId: 'pohutukawa-pos',
    name: 'Pohutukawa menu',
    category: 'pos',
    capabilities: ['menu.sync'],
    status: 'available',
  },
  {
    id: 'tui-checkout',
    providerId: 'tui-payments',
    name: 'Tui checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'available',
  },
  {
    id: 'kea-courier',
    providerId: 'kea-delivery',
    name: 'Kea courier',
    category: 'delivery',
    capabilities: ['orders.read', 'deliveries.track'],
    status: 'available',
  },
  {
    id: 'rata-book',
    providerId: 'rata-bookings',
    name: 'Rata reservation book',
    category: 'reservations',
    capabilities: ['reservations.read'],
    status: 'beta',
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
