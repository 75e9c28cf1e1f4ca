// The catalog (providers, connectors, capabilities) and the capability check. Catalog ids are slugs:
// they are reference data, named by people; only records the service creates get KSUIDs.
import { ApiError, type Ctx, invalid, ok, readObject, str } from './http.ts';
import { ENVIRONMENTS } from './state.ts';

export const PROVIDERS = [
  { id: 'kassenwerk', name: 'Kassenwerk', category: 'pos', summary: 'Point of sale for cafes and bars.' },
  { id: 'tablebook', name: 'TableBook', category: 'reservations', summary: 'Table reservations and waitlists.' },
  { id: 'paylane', name: 'PayLane', category: 'payments', summary: 'Card and wallet payments.' },
];

export const CAPABILITIES = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Book tables', critical: false, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
];

export const CONNECTORS = [
  {
    id: 'kassenwerk-pos',
    providerId: 'kassenwerk',
    name: 'Kassenwerk POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'tablebook-sync',
    providerId: 'tablebook',
    name: 'TableBook Sync',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'paylane-terminal',
    providerId: 'paylane',
    name: 'PayLane Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: 'paylane-online',
    providerId: 'paylane',
    name: 'PayLane Online',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
];

export const capability = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connector = (id: string) => CONNECTORS.find((c) => c.id === id);

export function listProviders(ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const cap = q.get('capability');
  const provider = q.get('providerId');
  const category = q.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (cap === null || c.capabilities.includes(cap)) &&
      (provider === null || c.providerId === provider) &&
      (category === null || c.category === category),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export function environmentOf(v: unknown, required: boolean): string {
  if (v === undefined && !required) return 'sandbox';
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v))
    throw invalid('Field environment is not an environment.', `environment: one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

/** POST /capabilities: an unknown connector is 404; an unknown or unoffered capability is "not allowed". */
export async function checkCapability(ctx: Ctx): Promise<void> {
  const body = await readObject(ctx);
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const cap = str(body, 'capability', 2, 120) ?? '';
  const environment = environmentOf(body.environment, false);
  const c = connector(connectorId);
  if (!c) throw new ApiError('not_found', 'Connector not found.', `connectorId: ${connectorId}`);
  const known = capability(cap);
  const allowed = known !== undefined && c.capabilities.includes(cap);
  const reason = !known ? 'capability_unknown' : allowed ? 'offered_by_connector' : 'not_offered_by_connector';
  ok(ctx, {
    decision: {
      connectorId,
      capability: cap,
      allowed,
      critical: known?.critical ?? false,
      idempotencyRequired: known?.idempotencyRequired ?? false,
      reason,
    },
    environment,
  });
}
