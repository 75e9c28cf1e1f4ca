// The router: public routes first, then every authenticated route behind the token, tenant and rate-limit
// checks. An unknown path (or a known path with another method) is 404 not_found: the interface's statuses
// have no 405.

import type { createAudit } from './audit.ts';
import type { Access, createAuth } from './auth.ts';
import { CAPABILITIES, connector, decide, listConnectors, listProviders } from './catalog.ts';
import { type createConnections, environmentOf } from './connections.ts';
import { type Ctx, CURRENT_VERSION, invalid, newId, notFound, ok, readJson, str } from './http-util.ts';
import type { createIdempotency } from './idempotency.ts';
import { servePublic } from './public-routes.ts';
import { ROUTES } from './route-table.ts';
import type { createStream } from './stream.ts';
import type { createWebhooks } from './webhooks.ts';

interface Deps {
  auth: ReturnType<typeof createAuth>;
  stream: ReturnType<typeof createStream>;
  webhooks: ReturnType<typeof createWebhooks>;
  connections: ReturnType<typeof createConnections>;
  audit: ReturnType<typeof createAudit>;
  idem: ReturnType<typeof createIdempotency>;
  windowMs: number;
  rateLimit: number;
  tokenTtlS: number;
  /** Refuse body fields the schema does not list (400), as Google's front ends do; default: ignored. */
  strictFields?: boolean;
  /** Refuse the delivery log and its retry to 2026-06-12 callers (404): it was added in 2026-07-01. */
  logSinceCurrent?: boolean;
  /** Answer :retry with an AIP-151 long-running Operation instead of the delivery. */
  retryAsOperation?: boolean;
}

const P = '/api/public/v1';
type Handler = (ctx: Ctx, a: Access, id: string) => Promise<void> | void;

export function createRoutes(d: Deps) {
  const withBody = async (ctx: Ctx) => {
    const body = await readJson(ctx);
    const route = ROUTES.find((r) => r.method === ctx.req.method && `${r.path}` === ctx.url.pathname);
    const listed = Object.keys((route?.body?.properties as Record<string, unknown> | undefined) ?? {});
    const unknown = Object.keys(body).filter((k) => !listed.includes(k));
    if (d.strictFields && unknown.length > 0) throw invalid(`${unknown[0]}: unknown field`);
    return body;
  };
  const sinceCurrent = (ctx: Ctx) => {
    if (d.logSinceCurrent && ctx.version < CURRENT_VERSION)
      throw notFound(`${ctx.url.pathname}: added in ${CURRENT_VERSION}, not offered to ${ctx.version}`);
  };
  const drain = async (ctx: Ctx) => {
    for await (const _c of ctx.req);
  };

  const authed: [string, RegExp, Handler][] = [
    [
      'GET',
      /^\/info$/,
      (ctx, a) =>
        ok(ctx, {
          tenant: a.tenant,
          clientId: a.clientId,
          environment: a.environment,
          tokenExpiresAt: new Date(a.tokenExpiresAt).toISOString(),
          purpose: 'partner integration tests',
          owner: 'integrations@partner.example',
        }),
    ],
    [
      'GET',
      /^\/providers$/,
      (ctx) => {
        const p = listProviders(ctx.url.searchParams);
        ok(ctx, { count: p.length, providers: p });
      },
    ],
    [
      'GET',
      /^\/connectors$/,
      (ctx) => {
        const c = listConnectors(ctx.url.searchParams);
        ok(ctx, { count: c.length, connectors: c });
      },
    ],
    ['GET', /^\/capabilities$/, (ctx) => ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES })],
    [
      'POST',
      /^\/capabilities$/,
      async (ctx) => {
        const body = await withBody(ctx);
        const connectorId = str(body, 'connectorId', 2, 120) ?? '';
        const cap = str(body, 'capability', 2, 120) ?? '';
        const environment = body.environment === undefined ? 'sandbox' : environmentOf(body.environment);
        const conn = connector(connectorId);
        if (!conn) throw notFound(`connectorId: no connector ${connectorId}`);
        ok(ctx, { decision: decide(conn, cap), environment });
      },
    ],
    [
      'GET',
      /^\/connections$/,
      (ctx, a) => {
        const c = d.connections.list(a);
        ok(ctx, { tenant: a.tenant, count: c.length, connections: c });
      },
    ],
    [
      'POST',
      /^\/connections$/,
      async (ctx, a) => {
        const body = await withBody(ctx);
        if (d.idem.keyOf(ctx) === undefined) d.idem.run(ctx, a, true, body, () => null);
        // The body's shape is checked before the key is taken; the catalog's refusal (404, 409) comes from
        // inside the keyed operation (recorded as the key's result where refusals are stored).
        const v = d.connections.validate(body);
        d.idem.run(ctx, a, true, body, () => {
          const c = d.connections.create(a, v);
          d.audit.record(ctx, a, 'connection.create', `connections/${c.id}`);
          return c;
        });
      },
    ],
    ['GET', /^\/connections\/([\w-]+)$/, (ctx, a, id) => ok(ctx, d.connections.get(a, id))],
    [
      'POST',
      /^\/idempotency-keys$/,
      async (ctx, a) => {
        const body = await withBody(ctx);
        const operation = str(body, 'operation', 2, 80) ?? '';
        d.idem.run(ctx, a, false, body, () => d.idem.issue(operation));
      },
    ],
    [
      'POST',
      /^\/webhooks$/,
      async (ctx, a) => {
        const body = await withBody(ctx);
        d.idem.run(ctx, a, true, body, () => {
          const w = d.webhooks.register(a, body);
          d.audit.record(ctx, a, 'webhook.create', w.name);
          return w;
        });
      },
    ],
    [
      'GET',
      /^\/webhooks$/,
      (ctx, a) => {
        const w = d.webhooks.list(a);
        ok(ctx, { count: w.length, webhooks: w });
      },
    ],
    ['GET', /^\/webhooks\/([\w-]+)$/, (ctx, a, id) => ok(ctx, d.webhooks.get(a, id))],
    [
      'DELETE',
      /^\/webhooks\/([\w-]+)$/,
      async (ctx, a, id) => {
        await drain(ctx);
        d.idem.run(ctx, a, true, {}, () => {
          const w = d.webhooks.remove(a, id);
          d.audit.record(ctx, a, 'webhook.delete', w.name);
          return w;
        });
      },
    ],
    [
      'GET',
      /^\/webhook-deliveries$/,
      (ctx, a) => {
        sinceCurrent(ctx);
        ok(ctx, d.webhooks.log(a, ctx.url.searchParams));
      },
    ],
    [
      'POST',
      /^\/webhook-deliveries\/([\w-]+):retry$/,
      async (ctx, a, id) => {
        await drain(ctx);
        sinceCurrent(ctx);
        d.idem.run(ctx, a, true, {}, () => {
          const r = d.webhooks.retry(a, id);
          d.audit.record(ctx, a, 'webhookDelivery.retry', r.name);
          if (!d.retryAsOperation) return r;
          const op = newId('op');
          return {
            name: `operations/${op}`,
            done: false,
            metadata: {
              '@type': 'type.redwood/RetryDeliveryMetadata',
              delivery: r.name,
              createTime: new Date().toISOString(),
            },
          };
        });
      },
    ],
    ['GET', /^\/audit-log$/, (ctx, a) => ok(ctx, d.audit.list(a, ctx.url.searchParams))],
  ];

  async function dispatch(ctx: Ctx): Promise<void> {
    const { pathname } = ctx.url;
    // HEAD is GET without the body (node drops a HEAD answer's body itself).
    const method = ctx.req.method === 'HEAD' ? 'GET' : (ctx.req.method ?? 'GET');
    if (method === 'GET' && servePublic(ctx, d)) return;
    if (method === 'GET' && pathname === `${P}/stream`) {
      // Public; a caller that presents credentials reads its tenant's own sequence (and they are checked).
      const a = ctx.req.headers.authorization ? d.auth.authenticate(ctx) : undefined;
      return d.stream.serve(ctx, a?.tenant);
    }
    if (!pathname.startsWith(`${P}/`)) throw notFound(`${method} ${pathname}: no such route`);
    const rest = pathname.slice(P.length);
    for (const [m, re, h] of authed) {
      const match = re.exec(rest);
      if (!match || m !== method) continue;
      const a = d.auth.authenticate(ctx);
      return h(ctx, a, match[1] ?? '');
    }
    throw notFound(`${method} ${pathname}: no such route`);
  }

  return { dispatch, invalid };
}
