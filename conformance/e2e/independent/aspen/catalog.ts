// The network catalog (invented sandbox data) and the capability decision. Provider and connector ids are
// stable ULIDs; capability ids are dotted names, since partners type them in requests.
import { stableUlid } from './ulid.ts';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  /** aspen's own: environments where the capability may be released. */
  environments: string[];
}
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
  status: string;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
const ALL = ENVIRONMENTS;

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, environments: ALL },
  {
    id: 'orders.write',
    label: 'Create and change orders',
    critical: true,
    idempotencyRequired: true,
    environments: ALL,
  },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, environments: ALL },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, environments: ALL },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false, environments: ALL },
  { id: 'inventory.read', label: 'Read stock levels', critical: false, idempotencyRequired: false, environments: ALL },
  { id: 'reservations.write', label: 'Book tables', critical: false, idempotencyRequired: true, environments: ALL },
];

function provider(name: string, category: string, summary: string, country: string): Provider {
  return { id: stableUlid(`provider:${name}`), name, category, summary, country };
}
export const PROVIDERS: Provider[] = [
  provider('Northwind Payments', 'payments', 'Card acquiring and payouts for venues', 'DE'),
  provider('Fjord POS', 'pos', 'Point-of-sale terminals and order routing', 'NO'),
  provider('Larder Stock', 'inventory', 'Stock and supplier management', 'AT'),
  provider('Tablewise', 'reservations', 'Table reservations and waitlists', 'NL'),
];

function connector(name: string, p: Provider, capabilities: string[]): Connector {
  return {
    id: stableUlid(`connector:${name}`),
    providerId: p.id,
    name,
    category: p.category,
    capabilities,
    status: 'available',
  };
}
const [pay, pos, stock, tables] = PROVIDERS as [Provider, Provider, Provider, Provider];
export const CONNECTORS: Connector[] = [
  connector('Northwind Card Present', pay, ['payments.capture', 'payments.refund', 'orders.read']),
  connector('Northwind Online', pay, ['payments.capture', 'payments.refund']),
  connector('Fjord Orders', pos, ['orders.read', 'orders.write', 'menu.sync']),
  connector('Larder Feed', stock, ['inventory.read', 'menu.sync']),
  connector('Tablewise Booking', tables, ['reservations.write', 'orders.read']),
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

export function publicCapability(c: Capability): Record<string, unknown> {
  return {
    id: c.id,
    label: c.label,
    critical: c.critical,
    idempotencyRequired: c.idempotencyRequired,
    environments: c.environments,
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

/** Decides a capability for a connector (the caller has checked that the connector exists). */
export function decide(conn: Connector, capability: string, environment: string, productionReview = false): Decision {
  const cap = capabilityById(capability);
  const base = {
    connectorId: conn.id,
    capability,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
  };
  if (cap === undefined)
    return { ...base, allowed: false, reason: 'capability_unknown: not in the capability catalog' };
  if (!conn.capabilities.includes(capability)) {
    return { ...base, allowed: false, reason: 'capability_not_offered: the connector does not offer this capability' };
  }
  if (productionReview && cap.critical && environment === 'production') {
    return {
      ...base,
      allowed: false,
      reason: 'review_required: critical capabilities need a review before production',
    };
  }
  if (!cap.environments.includes(environment)) {
    return { ...base, allowed: false, reason: `environment_not_released: not released for ${environment}` };
  }
  return { ...base, allowed: true, reason: `released: offered by the connector in ${environment}` };
}
