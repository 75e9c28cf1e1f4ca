// Read operations and the capability check: catalog, connections, /info, audit log, delivery log.
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { ApiError } from './http-kit.ts';
import type { Call } from './routes.ts';
import { environment, text } from './validate.ts';

export function listProviders({ ctx }: Call): unknown {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors({ ctx }: Call): unknown {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

export function validateCheck(body: Record<string, unknown>): {
  connectorId: string;
  capability: string;
  environment: string;
} {
  return {
    connectorId: text(body, 'connectorId', 2, 120),
    capability: text(body, 'capability', 2, 120),
    environment: environment(body, 'environment', 'sandbox'),
  };
}

export function checkCapability(_call: Call, input: unknown): unknown {
  const { connectorId, capability, environment: env } = input as ReturnType<typeof validateCheck>;
  const connector = connectorById(connectorId);
  const cap = capabilityById(capability);
  // An unknown connector is a decision, not a 404: the caller asked a yes/no question.
  let reason: string;
  let allowed = false;
  if (!connector) reason = `The connector ${connectorId} is not in the catalog.`;
  else if (!cap) reason = `The capability ${capability} is not in the catalog.`;
  else if (!connector.capabilities.includes(capability))
    reason = `The connector ${connectorId} does not offer ${capability}.`;
  else {
    allowed = true;
    reason = `The connector ${connectorId} offers ${capability} in ${env}.`;
  }
  return {
    decision: {
      connectorId,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}

export function listConnections({ deps, tenant }: Call): unknown {
  const connections = deps.connections.list(tenant);
  return { tenant, count: connections.length, connections };
}

export function getConnection({ deps, tenant, params }: Call): unknown {
  const c = deps.connections.get(tenant, params.connectionId ?? '');
  if (!c)
    throw new ApiError('not_found', 'The connection does not exist.', {
      hint: 'Compare the identifier and the tenant header.',
    });
  return c;
}

export function info({ ctx, tenant, clientId }: Call): unknown {
  const p = ctx.principal;
  return {
    tenant,
    clientId,
    environment: 'sandbox',
    roles: p?.roles ?? [],
    tokenExpiresAt: p ? new Date(p.expiresAt).toISOString() : null,
    purpose: 'Partner integration (sandbox)',
    owner: 'spruce-platform@contoso.example',
  };
}

function intParam(value: string | null, name: string, min: number, max: number, fallback: number): number {
  if (value === null) return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ApiError('invalid_request', `The parameter ${name} must be an integer from ${min} to ${max}.`, {
      target: name,
    });
  }
  return Number(value);
}

export function auditLog({ ctx, deps, tenant }: Call): unknown {
  const q = ctx.url.searchParams;
  const limit = intParam(q.get('limit'), 'limit', 1, 500, 25);
  const oldest = deps.options.auditOldestFirst;
  const name = oldest ? 'after' : 'before';
  const from = q.get(name) === null ? undefined : intParam(q.get(name), name, oldest ? 0 : 1, 1e9, 1);
  const { entries, hasMore } = deps.audit.page(tenant, limit, oldest, from);
  const last = entries.at(-1);
  const nextLink =
    hasMore && last ? `${ctx.origin}/api/public/v1/audit-log?limit=${limit}&${name}=${last.sequence}` : undefined;
  const order = oldest ? 'oldestFirst' : 'newestFirst';
  return { tenant, order, count: entries.length, entries, nextLink, proof: deps.audit.proof(tenant) };
}

export function deliveryAttempts({ deps, tenant, params }: Call): unknown {
  const attempts = deps.webhooks.attempts(tenant, params.webhookId ?? '');
  if (!attempts)
    throw new ApiError('not_found', 'The webhook does not exist.', {
      hint: 'Compare the identifier and the tenant header.',
    });
  return { webhookId: params.webhookId, count: attempts.length, attempts };
}

export function listWebhooks({ deps, tenant }: Call): unknown {
  const webhooks = deps.webhooks.list(tenant);
  return { count: webhooks.length, webhooks };
}

export function getWebhook({ deps, tenant, params }: Call): unknown {
  const w = deps.webhooks.get(tenant, params.webhookId ?? '');
  if (!w)
    throw new ApiError('not_found', 'The webhook does not exist.', {
      hint: 'Compare the identifier and the tenant header.',
    });
  return w;
}
