// The router: public scope, the authenticated :api pipeline (bearer → rate limit → tenant) and the route table.
import { authenticate, checkRate, type RateLimiter, tenantFor } from './auth.ts';
import { ApiError, type Conn, jsonObject, ok } from './conn.ts';
import {
  type Call,
  type Ctx,
  checkCapability,
  createConnection,
  issueKey,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './operations.ts';
import { auditLog, createWebhook, deleteWebhook, info, listDeliveries, retryDelivery } from './webhook-actions.ts';

export interface RouteDef {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  /** Path parameters are `:name` segments, as in a Phoenix router. */
  handle?: (call: Call, ctx: Ctx, params: Record<string, string>, opts: RouterOptions) => void;
}

export interface RouterOptions {
  redactKeyOnReplay: boolean;
  environment: string;
}

const P = '/api/public/v1';
const data = (f: (call: Call, ctx: Ctx) => unknown) => (call: Call, ctx: Ctx) => ok(call.conn, f(call, ctx));

export const ROUTES: RouteDef[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'GET',
    path: `${P}/openapi/:file`,
    purpose: 'OpenAPI document per version, as JSON or YAML (2026-07-01.json, 2026-07-01.yaml)',
    auth: false,
  },
  { method: 'GET', path: `${P}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'the access and tenant of this call',
    auth: true,
    handle: (c, x) => info(c, x, c.conn),
  },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, handle: data(listProviders) },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true, handle: data(listConnectors) },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    handle: data(listCapabilities),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    handle: data(checkCapability),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    handle: data(listConnections),
  },
  { method: 'POST', path: `${P}/connections`, purpose: 'create a connection', auth: true, handle: createConnection },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    handle: issueKey,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    handle: (c, x, _p, o) => createWebhook(c, x, o.redactKeyOnReplay),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/:webhookId`,
    purpose: 'remove a webhook receiver',
    auth: true,
    handle: (c, x, p) => deleteWebhook(c, x, p.webhookId ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/:webhookId/deliveries`,
    purpose: 'delivery log of a webhook receiver (jobs, newest first)',
    auth: true,
    handle: (c, x, p) => listDeliveries(c, x, p.webhookId ?? ''),
  },
  {
    method: 'POST',
    path: `${P}/webhooks/:webhookId/deliveries/:deliveryId/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    handle: (c, x, p) => retryDelivery(c, x, p.webhookId ?? '', p.deliveryId ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with a hash chain',
    auth: true,
    handle: auditLog,
  },
];

export function match(
  method: string,
  path: string,
): { route: RouteDef; params: Record<string, string> } | 'method' | undefined {
  const segs = path.split('/');
  let pathMatched = false;
  for (const route of ROUTES) {
    const rs = route.path.split('/');
    if (rs.length !== segs.length) continue;
    const params: Record<string, string> = {};
    const hit = rs.every((r, i) => {
      const s = segs[i] ?? '';
      if (r.startsWith(':')) {
        params[r.slice(1)] = decodeURIComponent(s);
        return s.length > 0;
      }
      return r === s;
    });
    if (!hit) continue;
    pathMatched = true;
    if (route.method === method) return { route, params };
  }
  return pathMatched ? 'method' : undefined;
}

/** The :api pipeline and the controller call; ApiErrors thrown anywhere are rendered by the caller. */
export function runAuthenticated(
  conn: Conn,
  ctx: Ctx,
  rl: RateLimiter,
  route: RouteDef,
  params: Record<string, string>,
  opts: RouterOptions,
): void {
  let client: ReturnType<typeof authenticate>;
  try {
    client = authenticate(ctx.store, conn);
  } catch (e) {
    // Unauthenticated calls are counted too, in a bucket of their own per peer address.
    const { 'retry-after': _wait, ...counted } = checkRate(
      rl,
      `anonymous:${conn.req.socket.remoteAddress ?? ''}`,
    ).headers;
    Object.assign(conn.headers, counted);
    throw e;
  }
  const rate = checkRate(rl, `${client.id}:${opts.environment}`);
  Object.assign(conn.headers, rate.headers);
  if (!rate.allowed) {
    throw new ApiError('rate_limited', 'too many calls in this window', {
      hint: `retry after ${rate.headers['retry-after']} s`,
    });
  }
  const tenant = tenantFor(ctx.store, conn, client);
  let parsed: Record<string, unknown> | undefined;
  const call: Call = {
    conn,
    tenant,
    clientId: client.id,
    body: () => {
      parsed ??= jsonObject(conn.rawBody);
      return parsed;
    },
  };
  route.handle?.(call, ctx, params, opts);
}
