// The network catalog yew serves: providers and connectors carry GUIDs (the team's database keys),
// capabilities carry readable dotted ids because partners type them into requests.
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  websiteUrl: string;
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
    id: '3f2a9c1e-7b4d-4e8a-9c21-5d6e7f809a11',
    name: 'Contoso Payments',
    category: 'payments',
    summary: 'Card and wallet payments for venues.',
    websiteUrl: 'https://payments.contoso.example',
  },
  {
    id: '8b1d4e6f-2a3c-4b5d-8e9f-0a1b2c3d4e22',
    name: 'Fabrikam Ordering',
    category: 'ordering',
    summary: 'Online and table ordering.',
    websiteUrl: 'https://ordering.fabrikam.example',
  },
  {
    id: 'c7e8f9a0-1b2c-4d3e-9f4a-5b6c7d8e9f33',
    name: 'Northwind Bookings',
    category: 'reservations',
    summary: 'Table reservations and waitlists.',
    websiteUrl: 'https://bookings.northwind.example',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'a1b2c3d4-0001-4e5f-8a9b-0c1d2e3f4a01',
    providerId: PROVIDERS[0]?.id ?? '',
    name: 'Contoso Card Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'generallyAvailable',
  },
  {
    id: 'a1b2c3d4-0002-4e5f-8a9b-0c1d2e3f4a02',
    providerId: PROVIDERS[0]?.id ?? '',
    name: 'Contoso Wallet Pay',
    category: 'payments',
    capabilities: ['payments.capture'],
    status: 'preview',
  },
  {
    id: 'a1b2c3d4-0003-4e5f-8a9b-0c1d2e3f4a03',
    providerId: PROVIDERS[1]?.id ?? '',
    name: 'Fabrikam Web Orders',
    category: 'ordering',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'generallyAvailable',
  },
  {
    id: 'a1b2c3d4-0004-4e5f-8a9b-0c1d2e3f4a04',
    providerId: PROVIDERS[1]?.id ?? '',
    name: 'Fabrikam Kiosk',
    category: 'ordering',
    capabilities: ['orders.read', 'menu.sync'],
    status: 'generallyAvailable',
  },
  {
    id: 'a1b2c3d4-0005-4e5f-8a9b-0c1d2e3f4a05',
    providerId: PROVIDERS[2]?.id ?? '',
    name: 'Northwind Table Planner',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
    status: 'generallyAvailable',
  },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'menu.sync',
    label: 'Synchronise the menu',
    critical: false,
    idempotencyRequired: false,
    description: 'Push menu items and prices.',
  },
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'Read incoming orders.',
  },
  {
    id: 'orders.write',
    label: 'Accept and update orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Accept, reject and complete orders.',
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
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'Read bookings.',
  },
  {
    id: 'reservations.write',
    label: 'Manage reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Create and cancel bookings.',
  },
  {
    id: 'loyalty.accrue',
    label: 'Accrue loyalty points',
    critical: false,
    idempotencyRequired: true,
    description: 'Offered by no connector yet.',
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function findConnector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

/** A decision: a capability is allowed where the connector offers it; the reason is a camelCase code plus words. */
export function decide(connector: Connector, capability: string) {
  const cap = findCapability(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !cap
    ? 'capabilityUnknown: the capability is not in the catalog'
    : offered
      ? 'offeredByConnector: the connector offers this capability'
      : 'notOfferedByConnector: the connector does not offer this capability';
  return {
    connectorId: connector.id,
    capability,
    allowed: Boolean(cap) && offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}
