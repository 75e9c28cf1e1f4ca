// The network catalog (a reference table in the sandbox, invented data only) and the capability decision.
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
  /** Environments in which the capability needs a signed pilot agreement first (tamarack's own field). */
  restrictedIn: string[];
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

export const PROVIDERS: Provider[] = [
  {
    id: 'quillon',
    name: 'Quillon POS',
    category: 'pos',
    summary: 'Point of sale for restaurants and bars.',
    website: 'https://quillon.example',
  },
  {
    id: 'ferrybank',
    name: 'Ferrybank Payments',
    category: 'payments',
    summary: 'Card terminals and online payments.',
    website: 'https://ferrybank.example',
  },
  {
    id: 'tallyroute',
    name: 'Tallyroute Delivery',
    category: 'delivery',
    summary: 'Courier dispatch for takeaway orders.',
    website: 'https://tallyroute.example',
  },
  {
    id: 'ledgerline',
    name: 'Ledgerline',
    category: 'accounting',
    summary: 'Bookkeeping exports for venues.',
    website: 'https://ledgerline.example',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'quillon.orders',
    providerId: 'quillon',
    name: 'Quillon Orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'generally_available',
  },
  {
    id: 'quillon.tables',
    providerId: 'quillon',
    name: 'Quillon Tables',
    category: 'pos',
    capabilities: ['tables.read', 'reservations.write'],
    status: 'generally_available',
  },
  {
    id: 'ferrybank.terminal',
    providerId: 'ferrybank',
    name: 'Ferrybank Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'generally_available',
  },
  {
    id: 'ferrybank.online',
    providerId: 'ferrybank',
    name: 'Ferrybank Online',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'payouts.read'],
    status: 'beta',
  },
  {
    id: 'tallyroute.dispatch',
    providerId: 'tallyroute',
    name: 'Tallyroute Dispatch',
    category: 'delivery',
    capabilities: ['orders.read', 'delivery.dispatch'],
    status: 'generally_available',
  },
  {
    id: 'ledgerline.export',
    providerId: 'ledgerline',
    name: 'Ledgerline Export',
    category: 'accounting',
    capabilities: ['ledger.export', 'payouts.read'],
    status: 'generally_available',
  },
];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, restrictedIn: [] },
  {
    id: 'orders.write',
    label: 'Create and change orders',
    critical: true,
    idempotencyRequired: true,
    restrictedIn: [],
  },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true, restrictedIn: [] },
  { id: 'tables.read', label: 'Read table plans', critical: false, idempotencyRequired: false, restrictedIn: [] },
  {
    id: 'reservations.write',
    label: 'Create reservations',
    critical: false,
    idempotencyRequired: true,
    restrictedIn: [],
  },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, restrictedIn: [] },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    restrictedIn: ['production'],
  },
  { id: 'payouts.read', label: 'Read payouts', critical: false, idempotencyRequired: false, restrictedIn: [] },
  { id: 'delivery.dispatch', label: 'Dispatch couriers', critical: true, idempotencyRequired: true, restrictedIn: [] },
  {
    id: 'ledger.export',
    label: 'Export bookkeeping records',
    critical: false,
    idempotencyRequired: false,
    restrictedIn: [],
  },
];

export function capabilityView(c: Capability): Record<string, unknown> {
  return {
    id: c.id,
    label: c.label,
    critical: c.critical,
    idempotencyRequired: c.idempotencyRequired,
    restrictedIn: c.restrictedIn,
  };
}

export interface Decision {
  connectorId: string;
  capability: string;
  allowed: boolean;
  critical: boolean;
  idempotencyRequired: boolean;
  reason: string;
}

/** The decision for a known connector (an unknown one is a 404 before this). Reasons name no request value. */
export function decide(connector: Connector, capability: string, environment: string): Decision {
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const base = {
    connectorId: connector.id,
    capability,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
  };
  if (!cap)
    return { ...base, allowed: false, reason: 'not_in_catalog: the capability is not part of the network catalog' };
  if (!connector.capabilities.includes(cap.id)) {
    return { ...base, allowed: false, reason: 'not_offered: the connector does not offer this capability' };
  }
  if (cap.restrictedIn.includes(environment)) {
    return {
      ...base,
      allowed: false,
      reason: 'pilot_agreement_missing: this environment needs a signed pilot agreement for the capability',
    };
  }
  return { ...base, allowed: true, reason: 'offered: the connector offers the capability in this environment' };
}
