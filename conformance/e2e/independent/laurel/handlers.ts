// Handlers of the catalog, capability checks, connections, idempotency keys, info and self-description.
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { CAPABILITIES, CONNECTORS, decide, findCapability, findConnector, PROVIDERS } from './catalog.ts';
import type { Ctx } from './http-util.ts';
import { ApiError, readJson, sendData } from './http-util.ts';
import { keyed } from './idempotency.ts';
import { ROUTES } from './routes.ts';
import type { Connection, State } from './state.ts';
import { isoTime, KEY_PATTERN, ulid } from './util.ts';
import * as v from './validate.ts';

export type Handler = (ctx: Ctx, state: State, params: Record<string, string>) => Promise<void> | void;

/** Query filters; optionally (LAUREL_CASE_INSENSITIVE_FILTERS=1, citext columns) compared case-insensitively. */
function filter<T>(
  items: T[],
  ctx: Ctx,
  tests: Record<string, (item: T, value: string) => boolean>,
  fold = false,
): T[] {
  return items.filter((item) =>
    Object.entries(tests).every(([name, test]) => {
      const value = ctx.query.get(name);
      return value === null || test(item, fold ? value.toLowerCase() : value);
    }),
  );
}

export const selfDescription: Handler = (ctx, state) => {
  sendData(ctx, {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      metadata: `${ctx.origin}${METADATA_PATH}`,
      headers: { authorization: 'Bearer <access token>', tenant: 'x-service-tenant' },
      tokenLifetimeSeconds: state.auth.tokenLifetimeS,
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validity: 'until first use + 24 h',
      requiredOn: ROUTES.filter((r) => r.auth === 'key').map((r) => `${r.method} ${r.path}`),
    },
    openapi: { json: '/api/public/v1/openapi.json', yaml: '/api/public/v1/openapi.yaml' },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth !== 'public' })),
  });
};

export const info: Handler = (ctx, state) => {
  sendData(ctx, {
    service: 'laurel',
    version: ctx.version,
    environment: 'sandbox',
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    rateLimit: {
      policy: 'token-bucket',
      limit: state.limiter.capacity,
      windowSeconds: state.limiter.capacity / state.limiter.perMs / 1000,
    },
  });
};

export const providers: Handler = (ctx, state) => {
  const list = filter(PROVIDERS, ctx, { category: (p, c) => p.category === c }, state.options.caseInsensitiveFilters);
  sendData(ctx, { count: list.length, providers: list });
};

export const connectors: Handler = (ctx, state) => {
  const list = filter(
    CONNECTORS,
    ctx,
    {
      capability: (c, x) => c.capabilities.includes(x),
      providerId: (c, x) => c.providerId === x,
      category: (c, x) => c.category === x,
    },
    state.options.caseInsensitiveFilters,
  );
  sendData(ctx, { count: list.length, connectors: list });
};

export const capabilities: Handler = (ctx) => {
  sendData(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
};

export const checkCapability: Handler = async (ctx, state) => {
  const key = state.options.keyOnlyWhereRequired ? undefined : state.keys.header(ctx, false);
  const raw = await readJson(ctx);
  const body = v.object(raw, ['connectorId', 'capability', 'environment'], state.options.ignoreExtraFields);
  const connectorId = v.text(body, 'connectorId', 2, 120) ?? '';
  const capability = v.text(body, 'capability', 2, 120) ?? '';
  const environment = v.environment(body, 'environment', false) ?? 'sandbox';
  const connector = findConnector(connectorId);
  if (!connector) throw new ApiError('not_found', 'body.connectorId: no such connector');
  if (state.options.unknownCapabilityNotFound && !findCapability(capability)) {
    throw new ApiError('not_found', 'body.capability: no such capability');
  }
  const out = keyed(ctx, state.keys, key, raw, () => ({
    decision: decide(connector, capability, environment),
    environment,
  }));
  sendData(ctx, out.data, out.meta);
};

export const listConnections: Handler = (ctx, state) => {
  const list = state.connections.filter((c) => c.tenant === ctx.tenant).map((c) => c.conn);
  sendData(ctx, { tenant: ctx.tenant, count: list.length, connections: list });
};

export const createConnection: Handler = async (ctx, state) => {
  const key = state.keys.header(ctx, true);
  const raw = await readJson(ctx);
  const body = v.object(raw, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = v.text(body, 'connectorId', 2, 120) ?? '';
  const environment = v.environment(body, 'environment', true) ?? 'sandbox';
  const scopeLabel = v.text(body, 'scopeLabel', 2, 120) ?? '';
  const wanted = v.textList(body, 'capabilities', 1, 24, 2, 120);
  const tenant = ctx.tenant ?? '';
  const out = keyed(ctx, state.keys, key, raw, () => {
    // Checked inside the keyed step: a replay answers the stored connection even if the catalog changed.
    const connector = findConnector(connectorId);
    if (!connector) throw new ApiError('not_found', 'body.connectorId: no such connector');
    const unknown = wanted.findIndex((c) => !findCapability(c));
    if (state.options.unknownCapabilityNotFound && unknown >= 0) {
      throw new ApiError('not_found', `body.capabilities[${unknown}]: no such capability`);
    }
    const refused = wanted.findIndex((c) => !connector.capabilities.includes(c));
    if (refused >= 0) {
      throw new ApiError(
        'capability_denied',
        `body.capabilities[${refused}]: not offered by this connector`,
        'have the capability released',
      );
    }
    const now = isoTime();
    const conn: Connection = {
      id: `conn_${ulid()}`,
      connectorId,
      environment,
      scopeLabel,
      state: 'requested',
      capabilities: wanted.map((c) => {
        const cap = findCapability(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: state.nextStep('requested'),
      createdAt: now,
      updatedAt: now,
    };
    state.connections.push({ tenant, conn });
    state.audit.record(tenant, {
      actor: ctx.clientId ?? '',
      action: 'connection.created',
      resourceType: 'connection',
      resourceId: conn.id,
      requestId: ctx.requestId,
      details: { connectorId, environment, scopeLabel, capabilities: wanted },
    });
    state.created(tenant, conn);
    return structuredClone(conn);
  });
  sendData(ctx, out.data, out.meta);
};

export const createKey: Handler = async (ctx, state) => {
  const key = state.options.keyOnlyWhereRequired ? undefined : state.keys.header(ctx, false);
  const raw = await readJson(ctx);
  const body = v.object(raw, ['operation'], state.options.ignoreExtraFields);
  const operation = v.text(body, 'operation', 2, 80) ?? '';
  const out = keyed(ctx, state.keys, key, raw, () => {
    const issued = `idk_${ulid()}`;
    const entry = state.keys.issue(ctx, issued, operation);
    return { idempotencyKey: issued, operation, expiresAt: isoTime(entry.expiresAt) };
  });
  sendData(ctx, out.data, out.meta);
};
