// The authenticated endpoints of the catalog, connections and issued keys; the webhook and audit
// endpoints follow in webhook-routes.ts.
import { capabilities, connectors, providers } from './catalog.ts';
import { decide, validateCreation } from './connections.ts';
import { ApiError, isoNow, ok, readJson } from './http-util.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import type { Handler } from './keyed.ts';
import { keyed } from './keyed.ts';
import { Errors, obj, str } from './validate.ts';
import { webhookRoutes } from './webhook-routes.ts';

export type { Call, State } from './keyed.ts';

export const routes: [string, RegExp, Handler][] = [
  [
    'GET',
    /^\/info$/,
    (c) =>
      ok(c.ctx, {
        tenant: c.tenant,
        clientId: c.access.clientId,
        environment: 'sandbox',
        purpose: 'conformance testing',
        owner: 'fern platform team',
      }),
  ],
  [
    'GET',
    /^\/providers$/,
    (c) => {
      const cat = c.ctx.query.get('category');
      const list = providers.filter((p) => cat === null || p.category === cat);
      ok(c.ctx, { count: list.length, providers: list });
    },
  ],
  [
    'GET',
    /^\/connectors$/,
    (c) => {
      const q = c.ctx.query;
      const list = connectors.filter(
        (k) =>
          (q.get('capability') === null || k.capabilities.includes(q.get('capability') ?? '')) &&
          (q.get('providerId') === null || k.providerId === q.get('providerId')) &&
          (q.get('category') === null || k.category === q.get('category')),
      );
      ok(c.ctx, { count: list.length, connectors: list });
    },
  ],
  ['GET', /^\/capabilities$/, (c) => ok(c.ctx, { count: capabilities.length, capabilities })],
  ['POST', /^\/capabilities$/, async (c) => ok(c.ctx, decide(await readJson(c.ctx.req), new Errors()))],
  [
    'GET',
    /^\/connections$/,
    (c) => {
      const list = c.st.connections.list(c.tenant);
      ok(c.ctx, { tenant: c.tenant, count: list.length, connections: list });
    },
  ],
  [
    'GET',
    /^\/connections\/([^/]+)$/,
    (c) => {
      const conn = c.st.connections.list(c.tenant).find((x) => x.id === c.params[0]);
      if (!conn)
        throw new ApiError('not_found', 'Connection not found', undefined, 'Compare identifier and tenant header');
      ok(c.ctx, conn);
    },
  ],
  [
    'POST',
    /^\/connections$/,
    (c) =>
      keyed(
        c,
        true,
        true,
        (b) => validateCreation(b, new Errors()),
        (input) =>
          c.st.connections.create(
            c.tenant,
            c.access.clientId,
            c.ctx.requestId,
            input as ReturnType<typeof validateCreation>,
          ),
      ),
  ],
  [
    'POST',
    /^\/idempotency-keys$/,
    (c) =>
      keyed(
        c,
        false,
        true,
        (b) => {
          const errors = new Errors();
          const operation = str(obj(b, errors), 'operation', 2, 80, errors);
          errors.throwIfAny();
          return operation;
        },
        (operation) => ({
          idempotencyKey: `idk_${crypto.randomUUID()}`,
          operation,
          expiresAt: isoNow(Date.now() + KEY_TTL_MS),
        }),
      ),
  ],
  ...webhookRoutes,
];
