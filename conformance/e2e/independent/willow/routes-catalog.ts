// Catalog reads (KV), capability checks, the info call and idempotency key issuance.
import { randomBytes } from 'node:crypto';
import { CAPABILITIES, CONNECTORS, catalogKv, decide, PROVIDERS } from './catalog-kv.ts';
import type { Body, Route } from './http-kit.ts';
import { notFound, stamp } from './http-kit.ts';
import { environment, text } from './validate.ts';

/** Issued keys live 24 hours; a stored response lives as long as its key. */
export const KEY_TTL_MS = 24 * 3600 * 1000;

const filterBy = <T>(list: T[], pred: (x: T) => boolean): { count: number; items: T[] } => {
  const items = list.filter(pred);
  return { count: items.length, items };
};

export const catalogRoutes: Route[] = [
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx) => {
      const category = ctx.query.get('category');
      const r = filterBy(PROVIDERS, (p) => category === null || p.category === category);
      return { count: r.count, providers: r.items };
    },
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx) => {
      const q = ctx.query;
      const r = filterBy(
        CONNECTORS,
        (c) =>
          (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
          (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
          (q.get('category') === null || c.category === q.get('category')),
      );
      return { count: r.count, connectors: r.items };
    },
  },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    contract: true,
    run: () => ({ count: CAPABILITIES.length, capabilities: CAPABILITIES }),
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'honoured',
    contract: true,
    check: (_ctx, _w, body: Body) => ({
      connectorId: text(body, 'connectorId', 2, 120),
      capability: text(body, 'capability', 2, 120),
      environment: body.environment === undefined ? 'sandbox' : environment(body.environment),
    }),
    run: (_ctx, w, input) => {
      const i = input as { connectorId: string; capability: string; environment: string };
      const connector = catalogKv.connector(i.connectorId);
      if (connector === undefined) throw notFound('No connector has this connectorId.');
      const decision = decide(connector, i.capability, i.environment);
      if (w.opts.sandboxOnly && i.environment === 'production') {
        decision.allowed = false;
        decision.reason = 'production_unavailable: this is the sandbox; production needs a production access';
      }
      return { decision, environment: i.environment };
    },
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'honoured',
    contract: true,
    check: (_ctx, _w, body: Body) => ({ operation: text(body, 'operation', 2, 80) }),
    run: (ctx, _w, input) => {
      const { operation } = input as { operation: string };
      const key = `wk.${Date.now().toString(36)}.${randomBytes(16).toString('hex')}`;
      return { idempotencyKey: key, operation, expiresAt: stamp(ctx.utcOffset, Date.now() + KEY_TTL_MS) };
    },
  },
  {
    method: 'GET',
    path: '/info',
    purpose: 'who am I: tenant, client, environment and token expiry',
    auth: true,
    key: 'none',
    run: (ctx, w) => {
      const v = w.auth.verify(ctx.req.headers.authorization);
      const client = w.auth.clients.get(ctx.clientId);
      return {
        tenant: ctx.tenant,
        clientId: ctx.clientId,
        environment: 'sandbox',
        purpose: client?.purpose ?? null,
        owner: client?.owner ?? null,
        tokenExpiresAt: v === undefined ? null : stamp(ctx.utcOffset, v.expiresAt),
        version: ctx.version,
      };
    },
  },
];
