// Catalog reads, the capability check and the sample /info call.
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, isEnvironment, PROVIDERS } from './catalog.ts';
import type { Input, Output } from './types.ts';
import { ApiError, roundTrip, str } from './util.ts';

function query(input: Input, name: string): string | undefined {
  const v = input.ctx.url.searchParams.get(name);
  if (v === null) return undefined;
  if (v.length < 1 || v.length > 120) {
    throw new ApiError('invalid_request', `Query parameter ${name} has an invalid length`, `${name}: length 1 to 120`);
  }
  return v;
}

export function listProviders(input: Input): Output {
  const category = query(input, 'category');
  const providers = PROVIDERS.filter((p) => !category || p.category === category);
  return { data: { count: providers.length, providers } };
}

export function listConnectors(input: Input): Output {
  const capability = query(input, 'capability');
  const providerId = query(input, 'providerId');
  const category = query(input, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (!capability || c.capabilities.includes(capability)) &&
      (!providerId || c.providerId === providerId) &&
      (!category || c.category === category),
  );
  return { data: { count: connectors.length, connectors } };
}

export function listCapabilities(): Output {
  return { data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } };
}

export function checkCapability(input: Input): Output {
  const connectorId = str(input.body, 'connectorId', 2, 120) as string;
  const capability = str(input.body, 'capability', 2, 120) as string;
  const env = input.body.environment ?? 'sandbox';
  if (!isEnvironment(env)) {
    throw new ApiError(
      'invalid_request',
      'Field environment is not a known environment',
      'environment: one of development, sandbox, pilot, production',
    );
  }
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'Connector not found', `connectorId: ${connectorId}`);
  const cap = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !cap ? 'CapabilityNotInCatalog' : offered ? 'OfferedByConnector' : 'NotOfferedByConnector';
  return {
    data: {
      decision: {
        connectorId,
        capability,
        allowed: Boolean(cap && offered),
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
        reason,
      },
      environment: env,
    },
  };
}

export function info(input: Input): Output {
  return {
    data: {
      service: 'Network Connections Service',
      Deployment: 'ironbark',
      Framework: 'Saturn/Giraffe (F#) with Marten and Hangfire',
      version: input.ctx.version,
      Environment: input.app.environment,
      ServerTime: roundTrip(),
    },
  };
}
