// The authenticated endpoints, Hasura REST style: each one a small "action handler" that gets the
// caller (client, tenant), the parsed body and query, and returns data or throws ApiError.

import type { AuditLog } from './audit.ts';
import { connectorById, decide, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import type { Store } from './state.ts';
import { ApiError, invalid, pgTime, uuidv7 } from './util.ts';
import { checkBody, createBody, keyBody, webhookBody } from './validate.ts';
import { EVENT_NAMES, type Gateway } from './webhooks.ts';

export interface Call {
  clientId: string;
  tenant: string;
  body: unknown;
  query: URLSearchParams;
  params: Record<string, string>;
  requestId: string;
  idempotencyKey: string | undefined;
}

export interface Deps {
  store: Store;
  gateway: Gateway;
  audit: AuditLog;
  keyTtlMs: number;
  auditOldestFirst: boolean;
}

export type Handler = (call: Call, deps: Deps) => unknown;

const notFound = (what: string): ApiError =>
  new ApiError(404, 'not_found', `${what} was not found`, undefined, 'compare the identifier and the tenant header');

function paging(q: URLSearchParams, max: number): { limit: number; offset: number } {
  const read = (name: string, dflt: number, min: number, hi: number): number => {
    const v = q.get(name);
    if (v === null) return dflt;
    if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > hi)
      throw invalid(`${name} must be an integer from ${min} to ${hi}`, `$.query.${name}`);
    return Number(v);
  };
  return { limit: read('limit', 50, 1, max), offset: read('offset', 0, 0, 1e9) };
}

export const handlers: Record<string, Handler> = {
  listProviders: (c) => listProviders(c.query),
  listConnectors: (c) => listConnectors(c.query),
  listCapabilities: () => listCapabilities(),
  checkCapability: (c) => {
    const b = checkBody(c.body);
    const connector = connectorById(b.connectorId);
    if (!connector) throw notFound(`connector ${b.connectorId}`);
    return { decision: decide(connector, b.capability, b.environment), environment: b.environment };
  },
  listConnections: (c, d) => {
    const connections = d.store.list(c.tenant);
    return { tenant: c.tenant, count: connections.length, connections };
  },
  createConnection: (c, d) => {
    const b = createBody(c.body);
    const connector = connectorById(b.connectorId);
    if (!connector) throw notFound(`connector ${b.connectorId}`);
    const missing = b.capabilities.filter((x) => !connector.capabilities.includes(x));
    if (missing.length)
      throw new ApiError(
        409,
        'capability_denied',
        'a requested capability is not released for this connector',
        `not offered by ${connector.id}: ${missing.join(', ')}`,
        'have the capability released',
      );
    const conn = d.store.create(c.tenant, b);
    d.audit.record(c.tenant, {
      actor: c.clientId,
      action: 'insert_connections_one',
      resource_type: 'connection',
      resource_id: conn.id,
      request_id: c.requestId,
      idempotency_key: c.idempotencyKey ?? null,
      change: {
        connectorId: conn.connectorId,
        environment: conn.environment,
        scopeLabel: conn.scopeLabel,
        capabilities: b.capabilities,
      },
    });
    return conn;
  },
  issueKey: (c, d) => {
    const { operation } = keyBody(c.body);
    const slug = operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 80);
    return { idempotencyKey: `${slug}:${uuidv7()}`, operation, expiresAt: pgTime(Date.now() + d.keyTtlMs) };
  },
  createWebhook: (c, d) => {
    const b = webhookBody(c.body, EVENT_NAMES);
    const w = d.gateway.register(c.tenant, b.url, b.events, b.description);
    d.audit.record(c.tenant, {
      actor: c.clientId,
      action: 'insert_webhooks_one',
      resource_type: 'webhook',
      resource_id: w.id,
      request_id: c.requestId,
      idempotency_key: c.idempotencyKey ?? null,
      change: { url: w.url, events: w.events },
    });
    return {
      id: w.id,
      url: w.url,
      events: w.events,
      description: w.description ?? null,
      active: true,
      created_at: w.createdAt,
      signature_header: 'X-Gateway-Signature',
      signing_secret: w.secret,
    };
  },
  deleteWebhook: (c, d) => {
    const w = d.gateway.webhooks.get(c.params.webhookId ?? '');
    if (!w || w.tenant !== c.tenant || !w.active) throw notFound(`webhook ${c.params.webhookId ?? ''}`);
    w.active = false;
    d.audit.record(c.tenant, {
      actor: c.clientId,
      action: 'delete_webhooks_by_pk',
      resource_type: 'webhook',
      resource_id: w.id,
      request_id: c.requestId,
      idempotency_key: c.idempotencyKey ?? null,
      change: { active: false },
    });
    return { id: w.id, active: false };
  },
  listAttempts: (c, d) => {
    const w = d.gateway.webhooks.get(c.params.webhookId ?? '');
    if (!w || w.tenant !== c.tenant) throw notFound(`webhook ${c.params.webhookId ?? ''}`);
    const { limit, offset } = paging(c.query, 250);
    const all = d.gateway.attemptsOf(w.id);
    const attempts = all.slice(offset, offset + limit);
    return { webhook_id: w.id, count: attempts.length, total: all.length, limit, offset, attempts };
  },
  retryEvent: (c, d) => {
    const w = d.gateway.webhooks.get(c.params.webhookId ?? '');
    if (!w || w.tenant !== c.tenant) throw notFound(`webhook ${c.params.webhookId ?? ''}`);
    const ev = d.gateway.findEvent(w.id, c.params.eventId ?? '');
    if (!ev) throw notFound(`event ${c.params.eventId ?? ''}`);
    const n = d.gateway.attempts.filter((a) => a.event_id === ev.id).length + 1;
    const attempt = d.gateway.attempt(ev, n, 'manual_retry');
    d.audit.record(c.tenant, {
      actor: c.clientId,
      action: 'retry_event',
      resource_type: 'event',
      resource_id: ev.id,
      request_id: c.requestId,
      idempotency_key: c.idempotencyKey ?? null,
      change: { attempt_id: attempt.id },
    });
    return { event_id: ev.id, attempt };
  },
  auditLog: (c, d) => {
    const { limit, offset } = paging(c.query, 500);
    const page = d.audit.page(c.tenant, limit, offset, d.auditOldestFirst);
    const next =
      offset + limit < page.total ? `/api/public/v1/audit-log?limit=${limit}&offset=${offset + limit}` : null;
    return {
      count: page.entries.length,
      limit,
      offset,
      order: d.auditOldestFirst ? 'oldest_first' : 'newest_first',
      next,
      ...page,
    };
  },
};
