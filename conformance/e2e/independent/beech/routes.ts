// config/routes.rb: the route table, shared by the router, the self-description and the OpenAPI document.
import { auditIndex } from './audit.ts';
import { deliveryLog, retryDelivery } from './deliveries.ts';
import type { Ctx } from './http-kit.ts';
import * as r from './resources.ts';
import type { Beech } from './state.ts';
import { deleteWebhook, registerWebhook, validateRegistration } from './webhooks.ts';

export interface Route {
  method: string;
  /** OpenAPI-style template, e.g. /api/public/v1/webhooks/{webhookId}. */
  path: string;
  purpose: string;
  auth: boolean;
  /** required: 428 without a key; honored: replayed when sent; none: never looked at. */
  key: 'required' | 'honored' | 'none';
  /** Part of the interface's endpoint table (the others are this deployment's additions). */
  contract: boolean;
  read?: (s: Beech, ctx: Ctx, params: string[]) => unknown;
  validate?: (body: Record<string, unknown>) => void;
  write?: (s: Beech, ctx: Ctx, body: Record<string, unknown>, params: string[]) => r.Result;
}

const P = '/api/public/v1';

export const routes: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, key: 'none', contract: true },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    contract: true,
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: 'none',
    contract: true,
    read: (_s, c) => r.listProviders(c),
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    contract: true,
    read: (_s, c) => r.listConnectors(c),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    contract: true,
    read: () => r.listCapabilities(),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'honored',
    contract: true,
    validate: r.validateCheck,
    write: r.checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    contract: true,
    read: (s, c) => r.listConnections(s, c),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    contract: true,
    validate: r.validateCreate,
    write: r.createConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'honored',
    contract: true,
    validate: r.validateKey,
    write: r.issueKey,
  },
  // rswag's downloadable files per version (swagger/<version>/openapi.json and .yaml).
  ...['2026-07-01', '2026-06-12'].flatMap((v) =>
    ['json', 'yaml'].map(
      (ext): Route => ({
        method: 'GET',
        path: `/api-docs/${v}/openapi.${ext}`,
        purpose: `OpenAPI 3.1 document of ${v} (${ext.toUpperCase()} download)`,
        auth: false,
        key: 'none',
        contract: false,
      }),
    ),
  ),
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    contract: true,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    contract: true,
    validate: validateRegistration,
    write: registerWebhook,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log',
    auth: true,
    key: 'none',
    contract: true,
    read: (s, c) => auditIndex(s, c),
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who am I: tenant, client, environment',
    auth: true,
    key: 'none',
    contract: false,
    read: (s, c) => ({
      tenant: c.tenant,
      clientId: c.clientId,
      environment: 'sandbox',
      rate_limit: { limit: s.options.rateLimit, period_seconds: s.options.windowMs / 1000 },
    }),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    contract: false,
    write: (s, c, _b, p) => deleteWebhook(s, c, p[0] ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    contract: false,
    read: (s, c, p) => deliveryLog(s, c, p[0] ?? ''),
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveries/{deliveryId}/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    contract: false,
    write: (s, c, _b, p) => retryDelivery(s, c, p[0] ?? '', p[1] ?? ''),
  },
];

const compiled = routes.map((route) => ({
  route,
  re: new RegExp(`^${route.path.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '([^/]+)')}/?$`),
}));

/** The route of a method and path (a trailing slash is ignored, as Rails does), its path parameters, or why not. */
export function match(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const { route, re } of compiled) {
    const m = re.exec(path);
    if (m !== null && route.method === method) return { route, params: m.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}
