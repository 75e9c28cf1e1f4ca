// Invented seed catalog of birch: a small network of hospitality providers. Slugs as ids (Rails
// `to_param` style), extra fields in snake_case.
export type Provider = {
  id: string;
  name: string;
  category: string;
  summary: string;
  website_url: string;
  status: string;
};
export type Connector = {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  version: string;
  docs_url: string;
  // capabilities offered but not released per environment (cause of capability_denied)
  unreleased_in: Record<string, string[]>;
};
export type Capability = {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
  group: string;
};

export const providers: Provider[] = [
  {
    id: 'lumen-pay',
    name: 'Lumen Pay',
    category: 'payments',
    summary: 'Card and wallet acceptance for venues.',
    website_url: 'https://lumen-pay.example',
    status: 'available',
  },
  {
    id: 'harbor-pos',
    name: 'Harbor POS',
    category: 'pos',
    summary: 'Point of sale for bars and restaurants.',
    website_url: 'https://harbor-pos.example',
    status: 'available',
  },
  {
    id: 'tablehop',
    name: 'TableHop',
    category: 'reservations',
    summary: 'Table reservations and waitlists.',
    website_url: 'https://tablehop.example',
    status: 'available',
  },
  {
    id: 'crate-supply',
    name: 'Crate Supply',
    category: 'inventory',
    summary: 'Stock counts and supplier orders.',
    website_url: 'https://crate-supply.example',
    status: 'beta',
  },
];

export const capabilities: Capability[] = [
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture an authorised card payment.',
    group: 'payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund a captured payment.',
    group: 'payments',
  },
  {
    id: 'payouts.instant',
    label: 'Instant payouts',
    critical: true,
    idempotencyRequired: true,
    description: 'Pay out the balance within minutes.',
    group: 'payments',
  },
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'Read orders of the venue.',
    group: 'orders',
  },
  {
    id: 'orders.write',
    label: 'Write orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Create and change orders.',
    group: 'orders',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menu',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menu items to the till.',
    group: 'catalog',
  },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'Read table reservations.',
    group: 'reservations',
  },
  {
    id: 'reservations.write',
    label: 'Book reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Create and cancel reservations.',
    group: 'reservations',
  },
  {
    id: 'stock.read',
    label: 'Read stock levels',
    critical: false,
    idempotencyRequired: false,
    description: 'Read current stock counts.',
    group: 'inventory',
  },
];

export const connectors: Connector[] = [
  {
    id: 'lumen-pay-terminal',
    providerId: 'lumen-pay',
    name: 'Lumen Pay Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'payouts.instant'],
    version: '3.2',
    docs_url: 'https://lumen-pay.example/docs',
    unreleased_in: { production: ['payouts.instant'], pilot: ['payouts.instant'] },
  },
  {
    id: 'lumen-pay-online',
    providerId: 'lumen-pay',
    name: 'Lumen Pay Online',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    version: '1.8',
    docs_url: 'https://lumen-pay.example/docs/online',
    unreleased_in: {},
  },
  {
    id: 'harbor-pos-cloud',
    providerId: 'harbor-pos',
    name: 'Harbor POS Cloud',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    version: '2024.4',
    docs_url: 'https://harbor-pos.example/api',
    unreleased_in: {},
  },
  {
    id: 'tablehop-booking',
    providerId: 'tablehop',
    name: 'TableHop Booking',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
    version: '5',
    docs_url: 'https://tablehop.example/dev',
    unreleased_in: {},
  },
  {
    id: 'crate-supply-stock',
    providerId: 'crate-supply',
    name: 'Crate Supply Stock',
    category: 'inventory',
    capabilities: ['stock.read'],
    version: '0.9',
    docs_url: 'https://crate-supply.example/api',
    unreleased_in: {},
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function connectorView(c: Connector): Record<string, unknown> {
  const { unreleased_in, ...rest } = c;
  return { ...rest, unreleased_in };
}
