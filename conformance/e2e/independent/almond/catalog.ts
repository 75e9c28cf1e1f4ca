// The seeded catalog: providers, connectors and capabilities (read-only, loaded at verticle start), and the
// capability check's decision.

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  country: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  environments: string[];
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
const ALL = ENVIRONMENTS;

export const PROVIDERS: Provider[] = [
  {
    id: 'kassenwerk',
    name: 'Kassenwerk',
    category: 'pos',
    summary: 'Point-of-sale systems for restaurants',
    country: 'DE',
  },
  {
    id: 'lieferblitz',
    name: 'Lieferblitz',
    category: 'delivery',
    summary: 'Delivery platform and courier dispatch',
    country: 'AT',
  },
  {
    id: 'tischfrei',
    name: 'Tischfrei',
    category: 'reservations',
    summary: 'Table reservations and guest lists',
    country: 'CH',
  },
  {
    id: 'zahlwerk',
    name: 'Zahlwerk',
    category: 'payments',
    summary: 'Card and wallet payments at the table',
    country: 'DE',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'kassenwerk-pos-v3',
    providerId: 'kassenwerk',
    name: 'Kassenwerk POS v3',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    environments: ALL,
  },
  {
    id: 'lieferblitz-dispatch',
    providerId: 'lieferblitz',
    name: 'Lieferblitz Dispatch',
    category: 'delivery',
    capabilities: ['orders.read', 'delivery.dispatch'],
    environments: ALL,
  },
  {
    id: 'tischfrei-booking',
    providerId: 'tischfrei',
    name: 'Tischfrei Booking',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
    environments: ALL,
  },
  {
    id: 'zahlwerk-checkout',
    providerId: 'zahlwerk',
    name: 'Zahlwerk Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
    environments: ALL,
  },
];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, description: 'Read orders' },
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Create orders',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menus',
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Book couriers',
  },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'Read bookings',
  },
  {
    id: 'reservations.write',
    label: 'Write reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Book tables',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture card payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund payments',
  },
];

export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);

export interface Decision {
  connectorId: string;
  capability: string;
  allowed: boolean;
  critical: boolean;
  idempotencyRequired: boolean;
  reason: string;
}

/** The decision for a known connector: allowed when the connector offers the capability in the environment. */
export function decide(connector: Connector, capability: string, environment: string): Decision {
  const cap = capabilityById(capability);
  const base = {
    connectorId: connector.id,
    capability,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
  };
  if (!cap) return { ...base, allowed: false, reason: `Capability ${capability} is not in the catalog` };
  if (!connector.capabilities.includes(capability))
    return { ...base, allowed: false, reason: `Connector ${connector.id} does not offer ${capability}` };
  if (!connector.environments.includes(environment))
    return { ...base, allowed: false, reason: `Connector ${connector.id} is not available in ${environment}` };
  return { ...base, allowed: true, reason: `Connector ${connector.id} offers ${capability} in ${environment}` };
}
