// Catalog reads and the capability check (GET /providers, /connectors, /capabilities; POST /capabilities).
import type { State } from './state.ts';
import { ApiError, type Ctx, ok } from './support.ts';
import { asObject, environment, text } from './validate.ts';

function filter(ctx: Ctx, name: string): string | null {
  return ctx.url.searchParams.get(name);
}

export function listProviders(state: State, ctx: Ctx): void {
  const category = filter(ctx, 'category');
  const providers = state.providers.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(state: State, ctx: Ctx): void {
  const capability = filter(ctx, 'capability');
  const providerId = filter(ctx, 'providerId');
  const category = filter(ctx, 'category');
  const connectors = state.connectors.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(state: State, ctx: Ctx): void {
  ok(ctx, { count: state.capabilities.length, capabilities: state.capabilities });
}

/** POST /capabilities: an unknown connector or capability is 404 (findOrFail); otherwise a decision. */
export function checkCapability(state: State, ctx: Ctx): void {
  const body = asObject(ctx.body);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const connector = state.connectors.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'No query results for model [Connector].');
  const cap = state.capabilities.find((c) => c.id === capability);
  if (!cap) throw new ApiError('not_found', 'No query results for model [Capability].');
  const allowed = connector.capabilities.includes(cap.id);
  const decision = {
    connectorId,
    capability,
    allowed,
    critical: cap.critical,
    idempotencyRequired: cap.idempotencyRequired,
    reason: allowed
      ? `The connector ${connector.id} offers ${cap.id} in ${env}.`
      : `The connector ${connector.id} does not offer ${cap.id}.`,
  };
  ok(ctx, { decision, environment: env });
}
