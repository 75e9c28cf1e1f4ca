// The catalog: invented providers, connectors and capabilities (sandbox test data only). Catalog ids are
// prefixed KSUIDs minted once and fixed, so they stay stable across restarts; capability ids are names.
import { badRequest, type Ctx, notFound, ok } from './http-kit.ts';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const PROVIDERS = [
  {
    id: 'prv_3Mgv30P6sbHRTobOmCpJ3qYfR9a',
    name: 'Tillwright',
    category: 'pos',
    summary: 'Cloud point of sale for small kitchens',
    country: 'US',
  },
  {
    id: 'prv_3Mgv38ul5y3JjQWaCXe7ZtFEVJZ',
    name: 'Lakeshore Pay',
    category: 'payments',
    summary: 'Card acquiring and refunds',
    country: 'US',
  },
  {
    id: 'prv_3Mgv3DawzdWbsfuNRjbr0HZ0IXZ',
    name: 'Riverbend Couriers',
    category: 'delivery',
    summary: 'Same-hour courier dispatch',
    country: 'US',
  },
  {
    id: 'prv_3Mgv3EETAdQejTFhuj1kn7A0UcZ',
    name: 'Ledgerline',
    category: 'accounting',
    summary: 'Bookkeeping exports',
    country: 'CA',
  },
];

export const CONNECTORS = [
  {
    id: 'cnr_3Mgv3NmgBOXdB8s8PZEFB74YEFv',
    providerId: PROVIDERS[0]?.id ?? '',
    name: 'Tillwright Cloud',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync', 'payments.refund'],
    status: 'general_availability',
  },
  {
    id: 'cnr_3Mgv3QAk6PFaFhUZojQ3NbIwK8a',
    providerId: PROVIDERS[1]?.id ?? '',
    name: 'Lakeshore Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'general_availability',
  },
  {
    id: 'cnr_3Mgv3YJpuZgEPD52aLTFgjIlmko',
    providerId: PROVIDERS[2]?.id ?? '',
    name: 'Riverbend Dispatch',
    category: 'delivery',
    capabilities: ['orders.read', 'delivery.dispatch'],
    status: 'beta',
  },
  {
    id: 'cnr_3Mgv3gEWLN8gPST7nP2So0DYMfe',
    providerId: PROVIDERS[3]?.id ?? '',
    name: 'Ledgerline Export',
    category: 'accounting',
    capabilities: ['ledger.export'],
    status: 'general_availability',
  },
];

const cap = (
  id: string,
  label: string,
  critical: boolean,
  idempotencyRequired: boolean,
  description: string,
): Capability => ({ id, label, critical, idempotencyRequired, description });

export const CAPABILITIES: Capability[] = [
  cap('orders.read', 'Read orders', false, false, 'read orders placed at the venue'),
  cap('orders.write', 'Write orders', true, true, 'create and amend orders'),
  cap('menu.sync', 'Synchronise menus', false, false, 'push menu changes to the point of sale'),
  cap('payments.capture', 'Capture payments', true, true, 'capture an authorised card payment'),
  cap('payments.refund', 'Refund payments', true, true, 'refund a captured payment'),
  cap('delivery.dispatch', 'Dispatch couriers', false, true, 'book a courier for an order'),
  cap('ledger.export', 'Export ledger', false, false, 'export the day book'),
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);

/** A filter value: absent is no filter, present but empty is a malformed request. */
function filter(ctx: Ctx, name: string): string | undefined {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return undefined;
  if (v.trim() === '') throw badRequest(`query parameter ${name} must not be empty`);
  return v;
}

export function listProviders(ctx: Ctx): void {
  const category = filter(ctx, 'category');
  const providers = PROVIDERS.filter((p) => !category || p.category === category);
  const data = { count: providers.length, providers };
  ok(ctx, data, { etagOf: data });
}

export function listConnectors(ctx: Ctx): void {
  const capability = filter(ctx, 'capability');
  const providerId = filter(ctx, 'providerId');
  const category = filter(ctx, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (!capability || c.capabilities.includes(capability)) &&
      (!providerId || c.providerId === providerId) &&
      (!category || c.category === category),
  );
  const data = { count: connectors.length, connectors };
  ok(ctx, data, { etagOf: data });
}

export function listCapabilities(ctx: Ctx): void {
  const data = { count: CAPABILITIES.length, capabilities: CAPABILITIES };
  ok(ctx, data, { etagOf: data });
}

/** The decision for one capability of one connector (an unknown connector is a 404). */
export function decide(connectorId: string, capability: string) {
  const connector = connectorById(connectorId);
  if (!connector) throw notFound('connector not found', `no connector ${connectorId}`);
  const c = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !c ? 'unknown_capability' : offered ? 'offered_by_connector' : 'not_offered_by_connector';
  return {
    connectorId,
    capability,
    allowed: Boolean(c) && offered,
    critical: c?.critical ?? false,
    idempotencyRequired: c?.idempotencyRequired ?? false,
    reason,
  };
}
