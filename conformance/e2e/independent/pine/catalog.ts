// Catalog reads, the capability check and GET /info. Every list answer carries data.next (null: complete),
// the way the team's paginated Phoenix views always render it.
import type { Answer, Ctx } from './http-kit.ts';
import { halt, isoUsec, ok } from './http-kit.ts';
import { DEPLOYMENT_ENVIRONMENT } from './rate-limit.ts';
import type { Capability } from './state.ts';
import { CAPABILITIES, CONNECTORS, PROVIDERS } from './state.ts';
import { Changeset, queryText } from './validate.ts';

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function listProviders(ctx: Ctx): Answer {
  const category = queryText(ctx.url.searchParams, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category);
  return ok({ count: providers.length, providers, next: null });
}

export function listConnectors(ctx: Ctx): Answer {
  const q = ctx.url.searchParams;
  const capability = queryText(q, 'capability');
  const providerId = queryText(q, 'providerId');
  const category = queryText(q, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  );
  return ok({ count: connectors.length, connectors, next: null });
}

export function listCapabilities(): Answer {
  return ok({ count: CAPABILITIES.length, capabilities: CAPABILITIES, next: null });
}

/** The decision for one capability of one connector (also used when booking a connection). */
export function decide(connectorId: string, capability: string, environment: string) {
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (connector === undefined) {
    halt('not_found', 'No connector with this id', 'connectorId: unknown', 'Read GET /api/public/v1/connectors.');
  }
  const cap = capabilityById(capability);
  const offered = cap !== undefined && connector.capabilities.includes(capability);
  let reason = 'offered_by_connector';
  if (cap === undefined) reason = 'unknown_capability';
  else if (!offered) reason = 'not_offered_by_connector';
  return {
    connectorId,
    capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: `${reason} (${environment})`,
  };
}

export function checkCapability(ctx: Ctx): Answer {
  const cs = new Changeset(ctx.body);
  const connectorId = cs.text('connectorId', 2, 120);
  const capability = cs.text('capability', 2, 120);
  const environment = cs.environment('environment', false) ?? 'sandbox';
  cs.check();
  return ok({ decision: decide(connectorId ?? '', capability ?? '', environment), environment });
}

/** GET /info: who is calling, for what, in which environment (the sample's first call). */
export function info(ctx: Ctx, tokenExpiresAt: number | undefined): Answer {
  return ok({
    app: 'pine-api',
    region: 'fra',
    environment: DEPLOYMENT_ENVIRONMENT,
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    purpose: 'conformance and integration tests',
    owner: 'platform@pine.example',
    tokenExpiresAt: tokenExpiresAt === undefined ? null : isoUsec(tokenExpiresAt),
    version: ctx.version,
  });
}
