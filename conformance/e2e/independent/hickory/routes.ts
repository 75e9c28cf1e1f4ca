// The route table: one row per operation, read by the server (dispatch), the self-description and the
// OpenAPI document, so what is served and what is described cannot drift apart.
import { auditLog } from './audit.ts';
import {
  checkCapability,
  createConnection,
  createKey,
  info,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './handlers.ts';
import type { State } from './state.ts';
import type { Ctx, Result } from './util.ts';
import { CHECK_SCHEMA, CONNECTION_SCHEMA, KEY_SCHEMA, type Schema, WEBHOOK_SCHEMA } from './validate.ts';
import { createWebhook, deleteWebhook, eventLog, listWebhooks, replayEvent } from './webhooks.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  /** Authenticated (bearer token and tenant header). */
  auth: boolean;
  /** Idempotency-Key required. */
  key?: boolean;
  body?: Schema;
  /** Answered outside the envelope machinery (self-description, OpenAPI, stream). */
  raw?: true;
  operationId: string;
  /** The version that introduced the route (the delivery log came with 2026-07-01). */
  since?: string;
  handle?: (state: State, ctx: Ctx, body: Record<string, unknown>) => Result;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, raw: true, operationId: 'describe' },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    raw: true,
    operationId: 'openapi',
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, client, environment',
    auth: true,
    operationId: 'info',
    handle: (s, c) => info(s, c),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    operationId: 'listProviders',
    handle: (s, c) => listProviders(s, c),
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    operationId: 'listConnectors',
    handle: (s, c) => listConnectors(s, c),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    operationId: 'listCapabilities',
    handle: () => listCapabilities(),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    body: CHECK_SCHEMA,
    operationId: 'checkCapability',
    handle: (_s, _c, b) => checkCapability(b),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    operationId: 'listConnections',
    handle: (s, c) => listConnections(s, c),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: CONNECTION_SCHEMA,
    operationId: 'createConnection',
    handle: createConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    body: KEY_SCHEMA,
    operationId: 'createIdempotencyKey',
    handle: (s, _c, b) => createKey(s, b),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    raw: true,
    operationId: 'stream',
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    operationId: 'listWebhooks',
    handle: (s, c) => listWebhooks(s, c),
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    body: WEBHOOK_SCHEMA,
    operationId: 'createWebhook',
    handle: createWebhook,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{id}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    operationId: 'deleteWebhook',
    handle: (s, c) => deleteWebhook(s, c),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{id}/events`,
    purpose: 'delivery log: events of a receiver with their delivery attempts',
    auth: true,
    operationId: 'listWebhookEvents',
    since: '2026-07-01',
    handle: (s, c) => eventLog(s, c),
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{id}/events/{eventId}/replay`,
    purpose: 'send one logged event again',
    auth: true,
    key: true,
    operationId: 'replayWebhookEvent',
    since: '2026-07-01',
    handle: (s, c) => replayEvent(s, c),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant (signed entries)',
    auth: true,
    operationId: 'auditLog',
    handle: (s, c) => auditLog(s, c),
  },
];

const compiled = ROUTES.map((r) => ({
  route: r,
  names: [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
  re: new RegExp(`^${r.path.replace(/\{\w+\}/g, '([A-Za-z0-9_-]{1,64})').replaceAll('.', '\\.')}$`),
}));

/** The routes a version offers (versions are dates, so they compare as text). */
export function routesOf(version: string): Route[] {
  return ROUTES.filter((r) => r.since === undefined || r.since <= version);
}

/** Query parameters each operation reads (strictQuery refuses any other). */
export const QUERY: Record<string, string[]> = {
  listProviders: ['category'],
  listConnectors: ['capability', 'providerId', 'category'],
  stream: ['cursor'],
  auditLog: ['page[size]', 'page[cursor]', 'limit'],
};

/** The route for method and path with its path parameters; a path known under another method gives none. */
export function match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const c of compiled) {
    if (c.route.method !== method) continue;
    const m = c.re.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => {
      params[n] = m[i + 1] ?? '';
    });
    return { route: c.route, params };
  }
  return undefined;
}
