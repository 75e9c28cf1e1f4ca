// Route handlers of the catalog: app/api/public/v1/{providers,connectors,capabilities}/route.ts.
import type { Ctx, RouteModule } from './types.ts';
import { environment, invalid, notFound, ok, str } from './util.ts';

function only(ctx: Ctx, allowed: string[]): void {
  for (const k of ctx.url.searchParams.keys()) {
    if (!allowed.includes(k))
      throw invalid(`Unknown query parameter ${k}.`, `Allowed: ${allowed.join(', ') || 'none'}.`);
  }
}

function filter(ctx: Ctx, name: string): string | undefined {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return undefined;
  if (v.length < 1 || v.length > 120) throw invalid(`Query parameter ${name} must have length 1 to 120.`);
  return v;
}

export const providersRoute: RouteModule = {
  GET(ctx) {
    only(ctx, ['category']);
    const category = filter(ctx, 'category');
    const providers = ctx.app.catalog.providers.filter((p) => category === undefined || p.category === category);
    return ok({ count: providers.length, providers });
  },
};

export const connectorsRoute: RouteModule = {
  GET(ctx) {
    only(ctx, ['capability', 'providerId', 'category']);
    const capability = filter(ctx, 'capability');
    const providerId = filter(ctx, 'providerId');
    const category = filter(ctx, 'category');
    const connectors = ctx.app.catalog.connectors
      .filter((c) => capability === undefined || c.capabilities.includes(capability))
      .filter((c) => providerId === undefined || c.providerId === providerId)
      .filter((c) => category === undefined || c.category === category);
    return ok({ count: connectors.length, connectors });
  },
};

export const capabilitiesRoute: RouteModule = {
  GET(ctx) {
    only(ctx, []);
    const capabilities = ctx.app.catalog.capabilities;
    return ok({ count: capabilities.length, capabilities });
  },
  POST(ctx) {
    const body = ctx.body as Record<string, unknown>;
    const connectorId = str(body, 'connectorId', 2, 120);
    const capability = str(body, 'capability', 2, 120);
    const env = body.environment === undefined ? 'sandbox' : environment(body.environment);
    const connector = ctx.app.catalog.connector(connectorId);
    if (!connector) throw notFound(`Connector ${connectorId} does not exist.`);
    return ok({ decision: ctx.app.catalog.decide(connector, capability, env), environment: env });
  },
};
