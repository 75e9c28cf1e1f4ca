// totara: the seeded catalog (a Prisma seed script's rows) and its three reads plus the capability check.
import { CapabilityCheckBody, validate } from './schema.ts';
import { type Ctx, HttpError, type Result } from './types.ts';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  createdAt: string;
}

const SEEDED = '2026-05-04T09:00:00.000Z';

const PROVIDER_IDS = [
  'ckprov0kowhaipay00000001',
  'ckprov0rimuorders0000002',
  'ckprov0totaradeliv000003',
  'ckprov0pohutukawa0000004',
] as const;

export const PROVIDERS = [
  {
    id: 'ckprov0kowhaipay00000001',
    name: 'Kowhai Payments',
    category: 'payments',
    summary: 'Card and wallet acceptance for venues',
  },
  {
    id: 'ckprov0rimuorders0000002',
    name: 'Rimu Orders',
    category: 'ordering',
    summary: 'Online ordering and table service',
  },
  {
    id: 'ckprov0totaradeliv000003',
    name: 'Totara Delivery',
    category: 'delivery',
    summary: 'Courier dispatch and tracking',
  },
  {
    id: 'ckprov0pohutukawa0000004',
    name: 'Pohutukawa Loyalty',
    category: 'loyalty',
    summary: 'Points and member offers',
  },
].map((p) => ({ ...p, createdAt: SEEDED, updatedAt: SEEDED }));

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.create', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'delivery.dispatch', label: 'Dispatch couriers', critical: false, idempotencyRequired: true },
  { id: 'delivery.track', label: 'Track deliveries', critical: false, idempotencyRequired: false },
  { id: 'loyalty.points', label: 'Award loyalty points', critical: false, idempotencyRequired: true },
].map((c) => ({ ...c, createdAt: SEEDED }));

export const CONNECTORS = [
  {
    id: 'ckconn0kowhaiterminal001',
    providerId: PROVIDER_IDS[0],
    name: 'Kowhai Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
  {
    id: 'ckconn0rimuweb0000000002',
    providerId: PROVIDER_IDS[1],
    name: 'Rimu Web Orders',
    category: 'ordering',
    capabilities: ['orders.read', 'orders.create', 'menu.sync'],
  },
  {
    id: 'ckconn0rimukiosk00000003',
    providerId: PROVIDER_IDS[1],
    name: 'Rimu Kiosk',
    category: 'ordering',
    capabilities: ['orders.create', 'menu.sync'],
  },
  {
    id: 'ckconn0totaracourier0004',
    providerId: PROVIDER_IDS[2],
    name: 'Totara Courier',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'delivery.track'],
  },
  {
    id: 'ckconn0pohutukawapts0005',
    providerId: PROVIDER_IDS[3],
    name: 'Pohutukawa Points',
    category: 'loyalty',
    capabilities: ['loyalty.points'],
  },
].map((c) => ({ ...c, createdAt: SEEDED, updatedAt: SEEDED }));

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);

/** A query parameter given once (a repeated or empty one is a 400, as Fastify's querystring schema would say). */
function filter(ctx: Ctx, name: string): string | undefined {
  const all = ctx.query.getAll(name);
  if (all.length === 0) return undefined;
  if (all.length > 1 || !all[0])
    throw new HttpError(400, 'invalid_request', `querystring/${name} must be string`, 'FST_ERR_VALIDATION');
  return all[0];
}

export function listProviders(ctx: Ctx): Result {
  const category = filter(ctx, 'category');
  const providers = PROVIDERS.filter((p) => !category || p.category === category);
  return { data: { count: providers.length, providers } };
}

export function listConnectors(ctx: Ctx): Result {
  const capability = filter(ctx, 'capability');
  const providerId = filter(ctx, 'providerId');
  const category = filter(ctx, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (!capability || c.capabilities.includes(capability)) &&
      (!providerId || c.providerId === providerId) &&
      (!category || c.category === category),
  );
  return { data: { count: connectors.length, connectors } };
}

export function listCapabilities(): Result {
  return { data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } };
}

/** POST /capabilities: offered by the connector means allowed, in every environment. */
export function checkCapability(ctx: Ctx): Result {
  const err = validate(CapabilityCheckBody, ctx.body);
  if (err) throw new HttpError(400, 'invalid_request', err, 'FST_ERR_VALIDATION');
  const body = ctx.body as { connectorId: string; capability: string; environment?: string };
  const environment = body.environment ?? 'sandbox';
  const connector = connectorById(body.connectorId);
  if (!connector) throw new HttpError(404, 'not_found', `Connector ${body.connectorId} not found`, 'FST_ERR_NOT_FOUND');
  const cap = capabilityById(body.capability);
  const offered = connector.capabilities.includes(body.capability);
  const decision = {
    connectorId: connector.id,
    capability: body.capability,
    allowed: Boolean(cap && offered),
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: !cap ? 'capability_unknown' : offered ? 'offered_by_connector' : 'not_offered_by_connector',
  };
  return { data: { decision, environment } };
}
