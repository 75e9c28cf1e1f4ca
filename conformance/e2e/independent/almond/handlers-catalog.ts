// Catalog reads, the capability check and the public /info.
import { CAPABILITIES, CONNECTORS, connectorById, decide, ENVIRONMENTS, PROVIDERS } from './catalog.ts';
import type { App } from './state.ts';
import type { Reply, RoutingContext } from './types.ts';
import { badRequest, CURRENT_VERSION, isoNow, notFound, objectBody, SERVICE, stringField } from './util.ts';

export function listProviders(ctx: RoutingContext): Reply {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { data: { count: providers.length, providers } };
}

export function listConnectors(ctx: RoutingContext): Reply {
  const capability = ctx.query.get('capability');
  const providerId = ctx.query.get('providerId');
  const category = ctx.query.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  return { data: { count: connectors.length, connectors } };
}

export function listCapabilities(): Reply {
  return { data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } };
}

export function environmentField(body: Record<string, unknown>, required: boolean): string {
  const value = body.environment;
  if (value === undefined || value === null) {
    if (required)
      throw badRequest(
        'Validation error for body application/json: provided object should contain property environment',
      );
    return 'sandbox';
  }
  if (typeof value !== 'string' || !ENVIRONMENTS.includes(value))
    throw badRequest(
      `Validation error for body application/json: environment should be one of ${ENVIRONMENTS.join(', ')}`,
    );
  return value;
}

export function checkCapability(ctx: RoutingContext): Reply {
  const body = objectBody(ctx.body);
  const connectorId = stringField(body, 'connectorId', 2, 120) as string;
  const capability = stringField(body, 'capability', 2, 120) as string;
  const environment = environmentField(body, false);
  const connector = connectorById(connectorId);
  if (!connector) throw notFound(`Connector ${connectorId} not found`);
  return { data: { decision: decide(connector, capability, environment), environment } };
}

export function info(_ctx: RoutingContext, app: App): Reply {
  return {
    data: {
      service: SERVICE,
      version: CURRENT_VERSION,
      environment: 'sandbox',
      serverTime: isoNow(),
      runtime: 'almond (vert.x style, node:http)',
      rateLimit: { limit: app.settings.rateLimit, windowSeconds: app.settings.windowMs / 1000, per: 'client, tenant' },
    },
  };
}
