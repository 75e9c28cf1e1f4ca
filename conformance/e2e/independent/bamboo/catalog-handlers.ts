// Catalog reads and the capability check (an unknown connector: 404; a capability it does not offer: not allowed).
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { denyUnknown, environment, text } from './validate.ts';
import { type Call, jsonBody, notFound, ok } from './wire.ts';

export function listProviders(call: Call): void {
  const category = call.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(call, { count: providers.length, providers });
}

export function listConnectors(call: Call): void {
  const q = call.url.searchParams;
  const capability = q.get('capability');
  const providerId = q.get('providerId');
  const category = q.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  ok(call, { count: connectors.length, connectors });
}

export function listCapabilities(call: Call): void {
  ok(call, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export async function checkCapability(call: Call): Promise<void> {
  const body = await jsonBody(call.req);
  denyUnknown(body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const connector = connectorById(connectorId);
  if (!connector) throw notFound(`No connector ${connectorId}.`);
  const known = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = offered
    ? `${connector.name} offers ${capability} in ${env}.`
    : known
      ? `${connector.name} does not offer ${capability}.`
      : `${capability} is not in the capability catalog.`;
  ok(call, {
    decision: {
      connectorId,
      capability,
      allowed: offered,
      critical: known?.critical ?? false,
      idempotencyRequired: known?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  });
}
