// The catalog as it would sit in Workers KV: written once at deploy time, read everywhere. KV is eventually
// consistent, which is harmless here because the catalog only changes with a deploy.

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
const ALL_ENVS = ENVIRONMENTS;

export const PROVIDERS: Provider[] = [
  { id: 'fjord-pay', name: 'Fjord Pay', category: 'payments', summary: 'Card and wallet acquiring', region: 'eu' },
  {
    id: 'tidewater-pos',
    name: 'Tidewater POS',
    category: 'point-of-sale',
    summary: 'Tills and kitchen screens',
    region: 'eu',
  },
  {
    id: 'lantern-couriers',
    name: 'Lantern Couriers',
    category: 'delivery',
    summary: 'Same-day courier network',
    region: 'eu',
  },
  { id: 'ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping and exports', region: 'global' },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Moves money.',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Returns money.',
  },
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'Reads orders.',
  },
  {
    id: 'orders.write',
    label: 'Write orders',
    critical: false,
    idempotencyRequired: true,
    description: 'Creates orders.',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: true,
    description: 'Pushes menus.',
  },
  {
    id: 'courier.dispatch',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Books a courier.',
  },
  {
    id: 'reports.export',
    label: 'Export reports',
    critical: false,
    idempotencyRequired: false,
    description: 'Exports ledgers.',
  },
  {
    id: 'loyalty.points',
    label: 'Loyalty points',
    critical: false,
    idempotencyRequired: true,
    description: 'Not offered yet.',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'fjord-pay.terminal',
    providerId: 'fjord-pay',
    name: 'Fjord Pay terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
    environments: ALL_ENVS,
  },
  {
    id: 'fjord-pay.online',
    providerId: 'fjord-pay',
    name: 'Fjord Pay online checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
    environments: ALL_ENVS,
  },
  {
    id: 'tidewater-pos.tills',
    providerId: 'tidewater-pos',
    name: 'Tidewater tills',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    environments: ALL_ENVS,
  },
  {
    id: 'lantern-couriers.dispatch',
    providerId: 'lantern-couriers',
    name: 'Lantern dispatch',
    category: 'delivery',
    capabilities: ['courier.dispatch', 'orders.read'],
    environments: ALL_ENVS,
  },
  {
    id: 'ledgerly.exports',
    providerId: 'ledgerly',
    name: 'Ledgerly exports',
    category: 'accounting',
    capabilities: ['reports.export'],
    environments: ALL_ENVS,
  },
];

/** KV-style lookups (get by key); the lists are the KV "list" of a prefix. */
export const catalogKv = {
  provider: (id: string): Provider | undefined => PROVIDERS.find((p) => p.id === id),
  connector: (id: string): Connector | undefined => CONNECTORS.find((c) => c.id === id),
  capability: (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id),
};

/** The decision of POST /capabilities; an unknown connector is refused by the caller (404). */
export function decide(connector: Connector, capabilityId: string, environment: string) {
  const cap = catalogKv.capability(capabilityId);
  let allowed = false;
  let reason: string;
  if (cap === undefined) reason = 'unknown_capability: the capability is not in the catalog';
  else if (!connector.capabilities.includes(capabilityId))
    reason = 'not_offered: the connector does not offer this capability';
  else if (!connector.environments.includes(environment))
    reason = 'environment_unavailable: not offered in this environment';
  else {
    allowed = true;
    reason = cap.critical ? 'offered: critical capability, calls are audited' : 'offered';
  }
  return {
    connectorId: connector.id,
    capability: capabilityId,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}
