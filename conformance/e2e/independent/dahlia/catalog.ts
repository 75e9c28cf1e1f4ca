// The catalog: providers, connectors, capabilities. Ids are readable slugs (a hosted catalog, not ours).
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
  environments: string[];
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export const PROVIDERS: Provider[] = [
  {
    id: 'paystream',
    name: 'Paystream',
    category: 'payments',
    summary: 'Card and wallet payments',
    website: 'https://paystream.example',
  },
  {
    id: 'tablebook',
    name: 'Tablebook',
    category: 'reservations',
    summary: 'Table reservations',
    website: 'https://tablebook.example',
  },
  {
    id: 'courierly',
    name: 'Courierly',
    category: 'delivery',
    summary: 'Last-mile delivery',
    website: 'https://courierly.example',
  },
  {
    id: 'ledgerline',
    name: 'Ledgerline',
    category: 'accounting',
    summary: 'Bookkeeping exports',
    website: 'https://ledgerline.example',
  },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.authorize', label: 'Authorize a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Create reservations', critical: false, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.dispatch', label: 'Dispatch an order', critical: true, idempotencyRequired: true },
  { id: 'ledger.export', label: 'Export bookings', critical: false, idempotencyRequired: true },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'paystream-cards',
    providerId: 'paystream',
    name: 'Paystream Cards',
    category: 'payments',
    capabilities: ['payments.authorize', 'payments.capture', 'payments.refund'],
    environments: ENVIRONMENTS,
  },
  {
    id: 'paystream-pos',
    providerId: 'paystream',
    name: 'Paystream POS',
    category: 'payments',
    capabilities: ['payments.authorize', 'payments.capture'],
    environments: ENVIRONMENTS,
  },
  {
    id: 'tablebook-api',
    providerId: 'tablebook',
    name: 'Tablebook API',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
    environments: ENVIRONMENTS,
  },
  {
    id: 'courierly-dispatch',
    providerId: 'courierly',
    name: 'Courierly Dispatch',
    category: 'delivery',
    capabilities: ['orders.read', 'orders.dispatch'],
    environments: ENVIRONMENTS,
  },
  {
    id: 'ledgerline-export',
    providerId: 'ledgerline',
    name: 'Ledgerline Export',
    category: 'accounting',
    capabilities: ['ledger.export', 'orders.read'],
    environments: ENVIRONMENTS,
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

// A decision: allowed when the connector offers the capability. A reason is always given.
export function decide(connectorId: string, capability: string) {
  const connector = connectorById(connectorId);
  const cap = capabilityById(capability);
  const offered = connector?.capabilities.includes(capability) ?? false;
  const reason = !cap ? 'unknown_capability' : offered ? 'offered_by_connector' : 'not_offered_by_connector';
  return {
    connectorId,
    capability,
    allowed: offered && cap !== undefined,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}
