// The route table: one row per endpoint, as the team's urls.py (every path with and without its trailing slash).
import {
  checkCapability,
  createConnection,
  createIdempotencyKey,
  listAudit,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './handlers.ts';
import type { Ctx } from './http-util.ts';
import { ok } from './http-util.ts';
import type { RowanState } from './state.ts';
import { listDeliveries, registerWebhook, resendDelivery } from './webhooks.ts';

export interface Caller {
  tenant: string;
  clientId: string;
  tokenExpiresAt: number;
}

/** A JSON-body write: `key` says whether Idempotency-Key is required, `perform` returns what a replay repeats. */
export interface Write {
  key: boolean;
  operation: string;
  perform: (
    ctx: Ctx,
    state: RowanState,
    caller: Caller,
    body: Record<string, unknown>,
    params: string[],
  ) => { status: number; data: unknown };
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  path: string;
  purpose: string;
  auth: boolean;
  read?: (ctx: Ctx, state: RowanState, caller: Caller, params: string[]) => void;
  write?: Write;
}

const P = '/api/public/v1';
const seg = '([A-Za-z0-9._:-]{1,200})';

export const ROUTES: Route[] = [
  { method: 'GET', pattern: new RegExp(`^${P}$`), path: P, purpose: 'self-description', auth: false },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/openapi\\.json$`),
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/openapi\\.yaml$`),
    path: `${P}/openapi.yaml`,
    purpose: 'OpenAPI 3.1 document (YAML)',
    auth: false,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/stream$`),
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/info$`),
    path: `${P}/info`,
    purpose: 'the calling access',
    auth: true,
    read: (ctx, _s, c) =>
      ok(ctx, {
        tenant: c.tenant,
        clientId: c.clientId,
        environment: 'sandbox',
        tokenExpiresAt: new Date(c.tokenExpiresAt).toISOString(),
      }),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/providers$`),
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    read: (ctx, s) => listProviders(ctx, s.options.pageSize),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/connectors$`),
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    read: (ctx, s) => listConnectors(ctx, s.options.pageSize),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/capabilities$`),
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    read: (ctx, s) => listCapabilities(ctx, s.options.pageSize),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${P}/capabilities$`),
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    // A check changes nothing: no key needed, a sent one is honoured like on any POST.
    write: { key: false, operation: 'capability.check', perform: (_ctx, _s, _c, body) => checkCapability(body) },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/connections$`),
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    read: (ctx, s, c) => listConnections(ctx, s, c.tenant),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${P}/connections$`),
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    write: {
      key: true,
      operation: 'connection.create',
      perform: (ctx, s, c, body) => createConnection(ctx, s, c.tenant, body),
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${P}/idempotency-keys$`),
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    write: {
      key: false,
      operation: 'idempotency-key.create',
      perform: (_ctx, _s, _c, body) => createIdempotencyKey(body),
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${P}/webhooks$`),
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    write: {
      key: true,
      operation: 'webhook.create',
      perform: (ctx, s, c, body) => registerWebhook(s, c.tenant, body, ctx.requestId),
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/webhooks/${seg}/deliveries$`),
    path: `${P}/webhooks/{id}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    read: (ctx, s, c, p) => listDeliveries(ctx, s, c.tenant, p[0] ?? ''),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${P}/webhooks/${seg}/deliveries/${seg}/resend$`),
    path: `${P}/webhooks/{id}/deliveries/{deliveryId}/resend`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    write: {
      key: true,
      operation: 'delivery.resend',
      perform: (_ctx, s, c, _b, p) => resendDelivery(s, c.tenant, p[0] ?? '', p[1] ?? ''),
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${P}/audit-log$`),
    path: `${P}/audit-log`,
    purpose: 'audit log with a proof of integrity',
    auth: true,
    read: (ctx, s, c) => listAudit(ctx, s, c.tenant),
  },
];
