// The network catalog (read-only reference data, seeded per deployment like a Cosmos container).
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
  lifecycle: string;
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
    id: 'contoso-payments',
    name: 'Contoso Payments',
    category: 'payments',
    summary: 'Card and wallet acquiring.',
    region: 'westeurope',
  },
  {
    id: 'fabrikam-pos',
    name: 'Fabrikam POS',
    category: 'point-of-sale',
    summary: 'Tills and order capture.',
    region: 'northeurope',
  },
  {
    id: 'northwind-logistics',
    name: 'Northwind Logistics',
    category: 'delivery',
    summary: 'Courier dispatch.',
    region: 'westeurope',
  },
  {
    id: 'tailspin-tables',
    name: 'Tailspin Tables',
    category: 'reservations',
    summary: 'Table bookings.',
    region: 'swedencentral',
  },
  {
    id: 'woodgrove-rewards',
    name: 'Woodgrove Rewards',
    category: 'loyalty',
    summary: 'Points and vouchers.',
    region: 'northeurope',
  },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'List and read orders.',
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
    description: 'Push menus and prices.',
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Book a courier.',
  },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'List bookings.',
  },
  {
    id: 'reservations.write',
    label: 'Write reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Create and change bookings.',
  },
  {
    id: 'loyalty.points',
    label: 'Award loyalty points',
    critical: false,
    idempotencyRequired: true,
    description: 'Credit points.',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'contoso-card-gateway',
    providerId: 'contoso-payments',
    name: 'Contoso Card Gateway',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    lifecycle: 'GA',
  },
  {
    id: 'contoso-wallet',
    providerId: 'contoso-payments',
    name: 'Contoso Wallet',
    category: 'payments',
    capabilities: ['payments.capture'],
    lifecycle: 'Preview',
  },
  {
    id: 'fabrikam-till',
    providerId: 'fabrikam-pos',
    name: 'Fabrikam Till',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    lifecycle: 'GA',
  },
  {
    id: 'fabrikam-kiosk',
    providerId: 'fabrikam-pos',
    name: 'Fabrikam Kiosk',
    category: 'point-of-sale',
    capabilities: ['orders.write', 'menu.sync'],
    lifecycle: 'GA',
  },
  {
    id: 'northwind-courier',
    providerId: 'northwind-logistics',
    name: 'Northwind Courier',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.read'],
    lifecycle: 'GA',
  },
  {
    id: 'tailspin-booking',
    providerId: 'tailspin-tables',
    name: 'Tailspin Booking',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
    lifecycle: 'GA',
  },
  {
    id: 'woodgrove-points',
    providerId: 'woodgrove-rewards',
    name: 'Woodgrove Points',
    category: 'loyalty',
    capabilities: ['loyalty.points'],
    lifecycle: 'GA',
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
