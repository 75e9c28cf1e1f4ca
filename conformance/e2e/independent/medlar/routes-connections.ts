// Route handlers of the tenant's records: app/api/public/v1/{connections,idempotency-keys,audit-log}/route.ts.
import type { RouteModule } from './types.ts';
import { ApiError, environment, invalid, notFound, ok, str } from './util.ts';

export const connectionsRoute: RouteModule = {
  keyRequired: ['POST'],
  GET(ctx) {
    const tenant = ctx.tenant as string;
    const connections = ctx.app.connections.list(tenant);
    return ok({ tenant, count: connections.length, connections });
  },
  POST(ctx) {
    const body = ctx.body as Record<string, unknown>;
    const connectorId = str(body, 'connectorId', 2, 120);
    const env = environment(body.environment);
    const scopeLabel = str(body, 'scopeLabel', 2, 120);
    const caps = body.capabilities;
    if (!Array.isArray(caps)) throw invalid('Field capabilities must be an array of strings.');
    if (caps.length < 1 || caps.length > 24) throw invalid('Field capabilities must have 1 to 24 items.');
    for (const c of caps) {
      if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
        throw invalid('Each capability must be a string of length 2 to 120.');
      }
    }
    const { catalog } = ctx.app;
    const connector = catalog.connector(connectorId);
    if (!connector) throw notFound(`Connector ${connectorId} does not exist.`);
    for (const c of caps as string[]) {
      if (!catalog.capability(c))
        throw invalid(`Capability ${c} is not in the catalog.`, 'See GET /api/public/v1/capabilities.');
    }
    for (const c of caps as string[]) {
      const d = catalog.decide(connector, c, env);
      if (!d.allowed) {
        throw new ApiError(409, 'capability_denied', `Capability ${c} is not released for this connection.`, d.reason);
      }
    }
    const connection = ctx.app.connections.create(
      ctx.tenant as string,
      { connectorId, environment: env, scopeLabel, capabilities: caps as string[] },
      ctx.clientId as string,
      ctx.requestId,
    );
    return ok(connection);
  },
};

export const idempotencyKeysRoute: RouteModule = {
  POST(ctx) {
    const operation = str(ctx.body as Record<string, unknown>, 'operation', 2, 80);
    return ok(ctx.app.idempotency.generate(operation));
  },
};

function positiveInt(raw: string | null, name: string, max: number): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw invalid(`Query parameter ${name} must be an integer from 1 to ${max}.`);
  }
  return Number(raw);
}

export const auditLogRoute: RouteModule = {
  GET(ctx) {
    for (const k of ctx.url.searchParams.keys()) {
      if (k !== 'limit' && k !== 'cursor') throw invalid(`Unknown query parameter ${k}.`, 'Allowed: limit, cursor.');
    }
    const max = ctx.app.settings.auditPageSize;
    const limit = positiveInt(ctx.url.searchParams.get('limit'), 'limit', Math.max(max, 200)) ?? max;
    const cursor = positiveInt(ctx.url.searchParams.get('cursor'), 'cursor', Number.MAX_SAFE_INTEGER);
    return ok(ctx.app.audit.page(ctx.tenant as string, limit, cursor));
  },
};
