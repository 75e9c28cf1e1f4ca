// banyan's self-description, catalog, connection, key, info and audit routes (webhooks in hook-routes.ts, the stream in stream.ts).
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, ENVIRONMENTS, PROVIDERS } from './catalog.ts';
import type { Call, Result, Route } from './state.ts';
import type { Connection } from './store.ts';
import { API, ApiError, CURRENT_VERSION, PUBLISHED_VERSIONS, text, uuidv7 } from './util.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const CONNECTION_FIELDS = ['connectorId', 'environment', 'scopeLabel', 'capabilities'];

function environment(v: unknown): string {
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError('invalid_request', 'environment must be one of the environments', ENVIRONMENTS.join(', '));
  }
  return v;
}

function providers(call: Call): Result {
  const category = call.url.searchParams.get('category');
  const list = PROVIDERS.filter((p) => category === null || p.category === category);
  return { data: { count: list.length, providers: list } };
}

function connectors(call: Call): Result {
  const q = call.url.searchParams;
  const list = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  return { data: { count: list.length, connectors: list } };
}

function checkCapability(call: Call): Result {
  const connectorId = text(call.body, 'connectorId', 2, 120);
  const capability = text(call.body, 'capability', 2, 120);
  const env = 'environment' in call.body ? environment(call.body.environment) : 'sandbox';
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'connector not found', 'no connector with this connectorId');
  const cap = capabilityById(capability);
  const allowed = Boolean(cap) && connector.capabilities.includes(capability);
  const reason = !cap
    ? 'capability is not in the catalog'
    : allowed
      ? 'capability is offered by the connector'
      : 'capability is not offered by the connector';
  const decision = {
    connectorId,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  return { data: { decision, environment: env } };
}

function createConnection(call: Call): Result {
  const b = call.body;
  const unknown = Object.keys(b).filter((k) => !CONNECTION_FIELDS.includes(k));
  if (unknown.length) throw new ApiError('invalid_request', 'unknown fields in body', unknown.join(', '));
  const connectorId = text(b, 'connectorId', 2, 120);
  const env = environment(b.environment);
  const scopeLabel = text(b, 'scopeLabel', 2, 120);
  const caps = b.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'capabilities must be an array of 1 to 24 items');
  }
  for (let i = 0; i < caps.length; i++) text(caps as unknown as Record<string, unknown>, String(i), 2, 120);
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'connector not found', 'no connector with this connectorId');
  const denied = (caps as string[]).filter((c) => !connector.capabilities.includes(c));
  if (denied.length) {
    throw new ApiError('capability_denied', 'capability is not released for this connection', denied.join(', '));
  }
  const connection: Connection = {
    id: uuidv7(),
    connectorId,
    environment: env,
    scopeLabel,
    state: 'requested',
    capabilities: (caps as string[]).map((c) => {
      const cap = capabilityById(c);
      return {
        capability: c,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'wait for provisioning (connection.state_changed)',
    createdAt: new Date().toISOString(),
  };
  const { store, timers, options } = call.state;
  store.append('connection.created', call.tenant, { connection });
  const timer = setTimeout(() => {
    timers.delete(timer);
    const next = { ...connection, state: 'provisioned', nextStep: 'none: ready for use' };
    store.append('connection.state_changed', call.tenant, { connection: next, previousState: 'requested' });
  }, options.provisionMs);
  timers.add(timer);
  return { data: connection };
}

function issueKey(call: Call): Result {
  const operation = text(call.body, 'operation', 2, 80);
  return { data: call.state.idem.issue(call.tenant, operation) };
}

function intParam(call: Call, name: string, min: number, max: number, fallback: number): number {
  const raw = call.url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ApiError('invalid_request', `${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

/** Newest first, paged backwards with before=<sequence>; each entry hash-linked to the one before it. */
function auditLog(call: Call): Result {
  const all = call.state.store.audit.get(call.tenant) ?? [];
  const limit = intParam(call, 'limit', 1, 500, 50);
  const before = intParam(call, 'before', 1, Number.MAX_SAFE_INTEGER, all.length + 1);
  const upto = Math.min(before - 1, all.length);
  const entries = all.slice(Math.max(0, upto - limit), upto).reverse();
  const last = entries.at(-1);
  const head = all.at(-1);
  const next = last && last.sequence > 1 ? `/api/public/v1/audit-log?limit=${limit}&before=${last.sequence}` : null;
  if (next) call.ctx.headers.link = `<${call.origin}${next}>; rel="next"`;
  return {
    data: {
      tenant: call.tenant,
      count: entries.length,
      entries,
      head: head ? { sequence: head.sequence, hash: head.hash } : { sequence: 0, hash: '0'.repeat(64) },
      proof: {
        type: 'hash-chain',
        algorithm: 'sha256',
        canonicalization: 'RFC8785',
        encoding: 'hex',
        input: 'previousHash followed by the JSON of the entry without hash, keys sorted at every depth',
        genesis: '0'.repeat(64),
      },
      ...(call.state.options.auditLinkOnly ? {} : { next }),
    },
  };
}

function info(call: Call): Result {
  const token = call.state.tokens.verify(call.req.headers.authorization);
  return {
    data: {
      service: 'banyan',
      tenant: call.tenant,
      clientId: call.clientId,
      environment: 'sandbox',
      tokenExpiresAt: token ? new Date(token.expiresAt).toISOString() : null,
    },
  };
}

/** GET /api/public/v1: what banyan is, how to authenticate, the idempotency rule and every route it serves. */
export function selfDescription(call: Call, routes: Route[]) {
  const { origin, state } = call;
  return {
    service: 'banyan network connections',
    surface: 'public',
    version: CURRENT_VERSION,
    versions: PUBLISHED_VERSIONS,
    serviceVersionHeader: state.options.serviceVersionRequired ? 'required' : 'optional',
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${origin}/auth/token`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      header: 'Authorization: Bearer <token>',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      minLength: 8,
      maxLength: 128,
      validityHours: 12,
      scope: 'tenant and exact key; same method, path and canonical body replays',
      requiredOn: routes.filter((r) => r.key === 'required').map((r) => `${r.method} ${API}${r.path}`),
    },
    stream: { kinds: ['connection.created', 'connection.state_changed'], numbering: 'global event store position' },
    webhooks: {
      events: WEBHOOK_EVENTS,
      signatureHeader: 'Banyan-Signature',
      deliveryIdHeader: 'Banyan-Delivery',
      retries: `${state.options.maxRetries}, exponential backoff from ${state.options.retryBaseMs} ms`,
    },
    openapi: { json: `${API}/openapi.json`, yaml: `${API}/openapi.yaml` },
    routes: routes.map((r) => ({ method: r.method, path: `${API}${r.path}`, purpose: r.purpose, auth: r.auth })),
  };
}

export const ROUTES: Route[] = [
  { method: 'GET', path: '/providers', auth: true, purpose: 'list providers', handle: providers },
  { method: 'GET', path: '/connectors', auth: true, purpose: 'list connectors', handle: connectors },
  {
    method: 'GET',
    path: '/capabilities',
    auth: true,
    purpose: 'capability catalog',
    handle: () => ({ data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } }),
  },
  {
    method: 'POST',
    path: '/capabilities',
    auth: true,
    purpose: 'check a capability of a connector',
    handle: checkCapability,
  },
  {
    method: 'GET',
    path: '/connections',
    auth: true,
    purpose: 'connections of the tenant',
    handle: (call) => {
      const list = call.state.store.connectionsOf(call.tenant);
      return { data: { tenant: call.tenant, count: list.length, connections: list } };
    },
  },
  {
    method: 'POST',
    path: '/connections',
    auth: true,
    key: 'required',
    purpose: 'create a connection',
    handle: createConnection,
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    auth: true,
    key: 'optional',
    purpose: 'generate an idempotency key',
    handle: issueKey,
  },
  { method: 'GET', path: '/audit-log', auth: true, purpose: 'audit log of the tenant (hash chain)', handle: auditLog },
  { method: 'GET', path: '/info', auth: true, purpose: 'who is calling: tenant, client, environment', handle: info },
];
