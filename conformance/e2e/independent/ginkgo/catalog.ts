// The catalog (providers, connectors, capabilities) and the capability check. Ids are integers serialised
// as strings, as the SQL-backed FastAPI service would hand them out; connector ids start at 101 so every id
// meets the 2-character minimum of connectorId.
import { type Call, HttpError, ok, parseJsonObject } from './http-kit.ts';
import { ENVIRONMENTS, validateBody } from './validation.ts';

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
    description: 'list and read orders',
  },
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'place orders',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'capture authorised payments',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menu',
    critical: false,
    idempotencyRequired: true,
    description: 'push menu changes',
  },
  {
    id: 'inventory.read',
    label: 'Read inventory',
    critical: false,
    idempotencyRequired: false,
    description: 'read stock levels',
  },
  {
    id: 'reservations.manage',
    label: 'Manage reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'book and cancel tables',
  },
];

export const PROVIDERS = [
  { id: '11', name: 'Ledgerline', category: 'payments', summary: 'Card and wallet payments', country: 'DE' },
  { id: '12', name: 'Tablewise', category: 'pos', summary: 'Point of sale for restaurants', country: 'AT' },
  { id: '13', name: 'Stockroom', category: 'inventory', summary: 'Stock and supplier management', country: 'CH' },
];

export const CONNECTORS = [
  {
    id: '101',
    providerId: '11',
    name: 'Ledgerline Payments',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: '102',
    providerId: '12',
    name: 'Tablewise POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: '103',
    providerId: '12',
    name: 'Tablewise Reservations',
    category: 'pos',
    capabilities: ['reservations.manage'],
  },
  {
    id: '104',
    providerId: '13',
    name: 'Stockroom Sync',
    category: 'inventory',
    capabilities: ['inventory.read', 'menu.sync'],
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connectorById(id: string) {
  return CONNECTORS.find((c) => c.id === id);
}

export function listProviders(call: Call): void {
  const category = call.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(call, { count: providers.length, providers });
}

export function listConnectors(call: Call): void {
  const q = call.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(call, { count: connectors.length, connectors });
}

export function listCapabilities(call: Call): void {
  ok(call, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export function decide(connectorId: string, capability: string, environment: string) {
  const connector = connectorById(connectorId);
  if (!connector)
    throw new HttpError(
      'not_found',
      'Connector not found',
      `body.connectorId: no connector '${connectorId}'`,
      'list connectors with GET /api/public/v1/connectors',
    );
  const cap = capabilityById(capability);
  const base = {
    connectorId,
    capability,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
  };
  if (!cap) return { ...base, allowed: false, reason: 'unknown_capability: not in the capability catalog' };
  if (!connector.capabilities.includes(capability))
    return { ...base, allowed: false, reason: `not_offered: connector ${connectorId} does not offer ${capability}` };
  return { ...base, allowed: true, reason: `offered: connector ${connectorId} offers ${capability} in ${environment}` };
}

export async function checkCapability(call: Call, text: string): Promise<void> {
  const body = validateBody(parseJsonObject(text), {
    connectorId: { type: 'string', required: true, min: 2, max: 120 },
    capability: { type: 'string', required: true, min: 2, max: 120 },
    environment: { type: 'string', enum: ENVIRONMENTS },
  });
  const environment = typeof body.environment === 'string' ? body.environment : 'sandbox';
  ok(call, { decision: decide(String(body.connectorId), String(body.capability), environment), environment });
}
