// Catalog reads, the capability check, the self-description and /info.
import { TOKEN_PATH } from './auth.ts';
import type { Ctx } from './http.ts';
import {
  allowQuery,
  baseUrlOf,
  CURRENT_VERSION,
  HttpError,
  onlyFields,
  readJsonObject,
  sendOk,
  textField,
} from './http.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, ENVIRONMENTS, PROVIDERS } from './state.ts';

export type RouteInfo = { method: string; path: string; purpose: string; auth: boolean };

export const ROUTES: RouteInfo[] = [
  { method: 'GET', path: '/api/public/v1', purpose: 'self-description', auth: false },
  { method: 'GET', path: '/api/public/v1/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false },
  { method: 'GET', path: '/api/public/v1/info', purpose: 'who is calling', auth: true },
  { method: 'GET', path: '/api/public/v1/providers', purpose: 'list providers', auth: true },
  { method: 'GET', path: '/api/public/v1/connectors', purpose: 'list connectors', auth: true },
  { method: 'GET', path: '/api/public/v1/capabilities', purpose: 'capability catalog', auth: true },
  { method: 'POST', path: '/api/public/v1/capabilities', purpose: 'check a capability of a connector', auth: true },
  { method: 'GET', path: '/api/public/v1/connections', purpose: 'connections of the tenant', auth: true },
  { method: 'POST', path: '/api/public/v1/connections', purpose: 'create a connection', auth: true },
  { method: 'POST', path: '/api/public/v1/idempotency-keys', purpose: 'generate an idempotency key', auth: true },
  { method: 'GET', path: '/api/public/v1/stream', purpose: 'status stream (Server-Sent Events)', auth: false },
  { method: 'POST', path: '/api/public/v1/webhooks', purpose: 'create a webhook receiver', auth: true },
  { method: 'DELETE', path: '/api/public/v1/webhooks/{webhookId}', purpose: 'remove a webhook receiver', auth: true },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks/{webhookId}/deliveries',
    purpose: 'delivery log of a receiver',
    auth: true,
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    purpose: 'trigger a delivery again',
    auth: true,
  },
  { method: 'GET', path: '/api/public/v1/audit-log', purpose: 'audit log', auth: true },
];

export function selfDescription(ctx: Ctx): void {
  allowQuery(ctx, []);
  const base = baseUrlOf(ctx);
  sendOk(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      scheme: 'Bearer',
      flow: 'client_credentials',
      tokenEndpoint: `${base}${TOKEN_PATH}`,
      metadata: `${base}/.well-known/openid-configuration`,
      clientAuthentication: ['client_secret_basic'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      scope: 'tenant',
      fingerprint: 'request body',
      lifetimeHours: 24,
    },
    routes: ROUTES,
  });
}

export function info(ctx: Ctx): void {
  allowQuery(ctx, []);
  sendOk(ctx, { tenant: ctx.tenant, clientId: ctx.clientId, environment: 'sandbox', version: ctx.version });
}

export function providers(ctx: Ctx): void {
  allowQuery(ctx, ['category']);
  const category = ctx.query.get('category');
  const list = PROVIDERS.filter((p) => category === null || p.category === category);
  sendOk(ctx, { count: list.length, providers: list });
}

export function connectors(ctx: Ctx): void {
  allowQuery(ctx, ['capability', 'providerId', 'category']);
  const q = ctx.query;
  const list = CONNECTORS.filter(
    (c) =>
      (!q.has('capability') || c.capabilities.includes(q.get('capability') ?? '')) &&
      (!q.has('providerId') || c.providerId === q.get('providerId')) &&
      (!q.has('category') || c.category === q.get('category')),
  );
  sendOk(ctx, { count: list.length, connectors: list });
}

export function capabilities(ctx: Ctx): void {
  allowQuery(ctx, []);
  sendOk(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export function environmentField(body: Record<string, unknown>, required: boolean): string {
  const value = body.environment;
  if (value === undefined && !required) return 'sandbox';
  if (typeof value !== 'string' || !ENVIRONMENTS.includes(value)) {
    throw new HttpError('invalid_request', `The field 'environment' must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return value;
}

export async function checkCapability(ctx: Ctx): Promise<void> {
  allowQuery(ctx, []);
  const { body } = await readJsonObject(ctx);
  onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = textField(body, 'connectorId', 2, 120);
  const capability = textField(body, 'capability', 2, 120);
  const environment = environmentField(body, false);
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new HttpError('not_found', `Connector '${connectorId}' was not found.`);
  const known = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !known
    ? 'The capability is not part of the catalog.'
    : offered
      ? 'The connector offers this capability.'
      : 'The connector does not offer this capability.';
  sendOk(ctx, {
    decision: {
      connectorId,
      capability,
      allowed: Boolean(known) && offered,
      critical: known?.critical ?? false,
      idempotencyRequired: known?.idempotencyRequired ?? false,
      reason,
    },
    environment,
  });
}
