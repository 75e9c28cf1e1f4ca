// Catalog reads and the capability check.
import {
  CAPABILITIES,
  CONNECTORS,
  capabilityById,
  capabilityView,
  connectorById,
  connectorView,
  ENVIRONMENTS,
  PROVIDERS,
  providerView,
} from './catalog.ts';
import { ApiError, type Ctx, ok, readJson } from './http-util.ts';
import { Violations } from './validate.ts';

export function listProviders(ctx: Ctx) {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category).map(providerView);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx) {
  const q = ctx.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  ).map(connectorView);
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx) {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES.map(capabilityView) });
}

/** Why a capability is or is not released for a connector in an environment. */
export function decide(connectorId: string, capability: string, environment: string) {
  const connector = connectorById(connectorId);
  const cap = capabilityById(capability);
  const base = {
    connectorId,
    capability,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
  };
  if (!connector || !cap || !connector.capabilities.includes(capability)) {
    return { ...base, allowed: false, reason: `not_offered: the connector does not offer ${capability}` };
  }
  if (cap.restrictedIn.includes(environment)) {
    return {
      ...base,
      allowed: false,
      reason: `restricted_in_environment: ${capability} is not released in ${environment}`,
    };
  }
  return { ...base, allowed: true, reason: `granted: ${capability} is offered by the connector in ${environment}` };
}

export async function checkCapability(ctx: Ctx, decideUnknown = false) {
  const body = await readJson(ctx);
  const v = new Violations();
  const connectorId = v.string(body, 'connectorId', 2, 120);
  const capability = v.string(body, 'capability', 2, 120);
  const environment = v.string(body, 'environment', 0, 100, false);
  v.choice('environment', environment, ENVIRONMENTS);
  v.throwIfAny();
  if (!connectorId || !capability) throw new ApiError('invalid_request');
  // An unknown connector is an item not found, as API Platform answers for a missing IRI.
  if (!decideUnknown && !connectorById(connectorId))
    throw new ApiError(
      'not_found',
      `connectorId: no connector "${connectorId}".`,
      'Compare the identifier with GET /connectors.',
    );
  const env = environment ?? 'sandbox';
  ok(ctx, { decision: decide(connectorId, capability, env), environment: env });
}
