// The authenticated operations. Each handler is synchronous from body to stored result, so two calls with
// one Idempotency-Key can never both create (Node runs one handler to its end before the next).
import { CAPABILITIES, CONNECTORS, capability, connector, PROVIDERS } from './catalog.ts';
import { ApiError } from './http-kit.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { decodeContinue, encodeContinue, rfc3339, uuidv7 } from './ids.ts';
import { publicConnection, type State } from './state.ts';
import { environment, onlyFields, text, textList } from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export interface Call {
  state: State;
  tenant: string;
  clientId: string;
  requestId: string;
  replay: boolean;
  body: Record<string, unknown>;
  query: URLSearchParams;
  params: Record<string, string>;
}

export interface Outcome {
  data: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A filter given empty is a malformed request, not "match nothing". */
function filter(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v === '') throw new ApiError('invalid_request', 'empty filter', `query parameter ${name} must not be empty`);
  return v;
}

export function listProviders(c: Call): Outcome {
  const category = filter(c.query, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category);
  return { data: { count: providers.length, providers } };
}

export function listConnectors(c: Call): Outcome {
  const cap = filter(c.query, 'capability');
  const providerId = filter(c.query, 'providerId');
  const category = filter(c.query, 'category');
  const connectors = CONNECTORS.filter(
    (x) =>
      (cap === undefined || x.capabilities.includes(cap)) &&
      (providerId === undefined || x.providerId === providerId) &&
      (category === undefined || x.category === category),
  );
  return { data: { count: connectors.length, connectors } };
}

export function listCapabilities(): Outcome {
  return { data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } };
}

export function checkCapability(c: Call): Outcome {
  onlyFields(c.body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(c.body, 'connectorId', 2, 120) ?? '';
  const capId = text(c.body, 'capability', 2, 120) ?? '';
  const env = environment(c.body, 'environment', false) ?? 'sandbox';
  const con = connector(connectorId);
  if (con === undefined) throw new ApiError('not_found', 'the entry does not exist', `no connector ${connectorId}`);
  const cap = capability(capId);
  const offered = con.capabilities.includes(capId);
  const reason =
    cap === undefined
      ? 'capability is not in the catalog'
      : offered
        ? `connector offers ${capId} in ${env}`
        : `connector does not offer ${capId}`;
  return {
    data: {
      decision: {
        connectorId,
        capability: capId,
        allowed: cap !== undefined && offered,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
        reason,
      },
      environment: env,
    },
  };
}

export function listConnections(c: Call): Outcome {
  const all = c.state.connections.filter((x) => x.tenant === c.tenant);
  const rawLimit = c.query.get('limit');
  const token = c.query.get('continue');
  // Unpaged by default (the interface lists all of them); limit/continue are the paging of a Kubernetes list.
  const limit = rawLimit === null ? all.length : Number(rawLimit);
  if (rawLimit !== null && (!/^\d+$/.test(rawLimit) || limit < 1 || limit > 500))
    throw new ApiError('invalid_request', 'invalid limit', 'limit must be an integer from 1 to 500');
  const offset = token === null ? 0 : decodeContinue(token);
  if (offset === undefined) throw new ApiError('invalid_request', 'invalid continue token');
  const items = all.slice(offset, offset + limit).map(publicConnection);
  const end = offset + items.length;
  const next = end < all.length ? encodeContinue(end, c.state.rv.next()) : '';
  return {
    data: {
      tenant: c.tenant,
      count: items.length,
      connections: items,
      metadata: { continue: next, remainingItemCount: all.length - end },
    },
  };
}

export function createConnection(c: Call): Outcome {
  onlyFields(c.body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(c.body, 'connectorId', 2, 120) ?? '';
  const env = environment(c.body, 'environment', true) ?? 'sandbox';
  const scopeLabel = text(c.body, 'scopeLabel', 2, 120) ?? '';
  const caps = textList(c.body, 'capabilities', 1, 24, 2, 120);
  const con = connector(connectorId);
  if (con === undefined) throw new ApiError('not_found', 'the entry does not exist', `no connector ${connectorId}`);
  const denied = caps.filter((x) => !con.capabilities.includes(x));
  if (denied.length > 0) {
    throw new ApiError(
      'capability_denied',
      'capability is not released for this connection',
      `not offered by ${connectorId}: ${denied.slice(0, 3).join(', ')}`,
      'have the capability released',
    );
  }
  const created = c.state.createConnection(c.tenant, c.clientId, c.requestId, {
    connectorId,
    environment: env,
    scopeLabel,
    capabilities: caps,
  });
  return { data: publicConnection(created) };
}

export function issueKey(c: Call): Outcome {
  onlyFields(c.body, ['operation']);
  const operation = text(c.body, 'operation', 2, 80) ?? '';
  return { data: { idempotencyKey: `chestnut:${uuidv7()}`, operation, expiresAt: rfc3339(Date.now() + KEY_TTL_MS) } };
}

export function registerWebhook(c: Call): Outcome {
  onlyFields(c.body, ['url', 'events']);
  const url = text(c.body, 'url', 8, 2048) ?? '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'invalid url', 'url must be an absolute http or https address');
  }
  if (!['http:', 'https:'].includes(parsed.protocol))
    throw new ApiError('invalid_request', 'invalid url', 'url must be an absolute http or https address');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) {
    throw new ApiError(
      'invalid_request',
      'receiver not reachable from the sandbox',
      'the sandbox delivers to loopback receivers only',
    );
  }
  const events = textList(c.body, 'events', 1, 16, 3, 80);
  const unknown = events.find((e) => !WEBHOOK_EVENTS.includes(e));
  if (unknown !== undefined)
    throw new ApiError(
      'invalid_request',
      'unknown event name',
      `event ${unknown} is not offered`,
      `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
    );
  const r = c.state.webhooks.register(c.tenant, url, [...new Set(events)]);
  c.state.audit.record(c.tenant, 'webhook.create', 'WebhookReceiver', r.id, c.clientId, c.requestId);
  return {
    data: {
      webhook: receiverView(r),
      credentials: { hmacKey: r.signingKey, algorithm: 'hmac-sha256', header: 'Chestnut-Signature' },
    },
  };
}

export function listWebhooks(c: Call): Outcome {
  const items = c.state.webhooks.list(c.tenant).map(receiverView);
  return { data: { count: items.length, webhooks: items } };
}

export function deleteWebhook(c: Call): Outcome {
  const r = c.state.webhooks.remove(c.tenant, c.params.id ?? '');
  c.state.audit.record(c.tenant, 'webhook.delete', 'WebhookReceiver', r.id, c.clientId, c.requestId);
  return { data: { webhook: { ...receiverView(r), deletionTimestamp: rfc3339() } } };
}

export function deliveryLog(c: Call): Outcome {
  const { data, next } = c.state.webhooks.deliveryLog(c.tenant, c.params.id ?? '', c.query);
  return { data, headers: next === undefined ? {} : { link: `<?continue=${next}>; rel="next"` } };
}

export function redeliver(c: Call): Outcome {
  onlyFields(c.body, []);
  const d = c.state.webhooks.redeliver(c.tenant, c.params.id ?? '', c.params.deliveryId ?? '');
  c.state.audit.record(c.tenant, 'delivery.redeliver', 'DeliveryAttempt', d.id, c.clientId, c.requestId);
  return { data: { delivery: d } };
}

export function auditLog(c: Call): Outcome {
  const o = c.state.options;
  const { data, next } = c.state.audit.page(c.tenant, c.query, o.auditMaxLimit ?? 500, o.auditNewestFirst === true);
  const limit = c.query.get('limit');
  const link =
    next === undefined || o.auditNoLink === true
      ? undefined
      : `</api/public/v1/audit-log?${limit === null ? '' : `limit=${limit}&`}continue=${next}>; rel="next"`;
  return { data, headers: link === undefined ? {} : { link } };
}

export function info(c: Call): Outcome {
  const client = c.state.auth.client(c.clientId);
  return {
    data: {
      tenant: c.tenant,
      clientId: c.clientId,
      environment: 'sandbox',
      purpose: client?.purpose ?? '',
      owner: client?.owner ?? '',
      accessExpiresAt: client?.expiresAt ?? '',
    },
  };
}

function receiverView(r: {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
  resourceVersion: string;
}): Record<string, unknown> {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    state: 'Active',
    createdAt: r.createdAt,
    resourceVersion: r.resourceVersion,
  };
}
