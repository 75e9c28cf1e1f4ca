// mangrove: an independent deployment of the interface, written from interface.md alone in the style of
// a Rails team (integer ids as strings, snake_case extras, Kaminari paging, Sidekiq retries,
// Rack::Attack throttling). Two loopback listeners share one store: the main and the alternate base URL.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuditLog, auditIndex, record } from './audit.ts';
import { authenticate, CLIENT_ID, info, newAuth, TENANTS, throttle, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, fail, newCtx, ok, parseObject, readBody } from './http.ts';
import { type IdemStore, idempotent, issueKey, readKey } from './idempotency.ts';
import { servePublic } from './public.ts';
import * as r from './resources.ts';
import { type MangroveOptions, newStore } from './state.ts';
import { openStream, publish } from './stream.ts';
import { createWebhook, deliveryView, emit, enqueue, findWebhook, retryNow, webhookView } from './webhooks.ts';

export type { MangroveOptions } from './state.ts';

const P = '/api/public/v1';

/** A Sidekiq job id (24 hex characters). */
const jid = () => randomBytes(12).toString('hex');

export interface Mangrove {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
}

export async function startMangrove(options: MangroveOptions = {}): Promise<Mangrove> {
  const store = newStore(options);
  const auth = newAuth();
  const idem: IdemStore = new Map();
  const audit: AuditLog = new Map();
  let tokenUrl = '';

  const connectionEvent = (type: string, c: Parameters<typeof r.connectionView>[0]) => {
    publish(store, type, { connection_id: c.id, state: c.state, environment: c.environment });
    emit(store, c.tenant, type, { connection: r.connectionView(c) });
  };

  /** The authenticated routes: [method, pattern, handler(ctx, match, body text)]. */
  type Handler = (ctx: Ctx, id: string, text: string) => void;
  const routes: [string, RegExp, Handler][] = [
    ['GET', /^\/info$/, (ctx) => ok(ctx, info(auth, ctx))],
    ['GET', /^\/providers$/, (ctx) => ok(ctx, r.listProviders(ctx))],
    ['GET', /^\/connectors$/, (ctx) => ok(ctx, r.listConnectors(ctx))],
    ['GET', /^\/capabilities$/, (ctx) => ok(ctx, r.listCapabilities())],
    ['POST', /^\/capabilities$/, (ctx, _id, text) => ok(ctx, r.checkCapability(text))],
    ['GET', /^\/connections$/, (ctx) => ok(ctx, r.listConnections(store, ctx))],
    ['GET', /^\/connections\/([^/]+)$/, (ctx, id) => ok(ctx, r.showConnection(store, ctx, id))],
    [
      'POST',
      /^\/connections$/,
      (ctx, _id, text) => {
        const key = readKey(ctx, true);
        const body = parseObject(text);
        const input = r.validateConnection(body);
        idempotent(idem, ctx, key, body, () => {
          const c = r.createConnection(store, ctx, input, (ready) => {
            const job = { tenant: ready.tenant, clientId: 'system:provisioning_job', requestId: jid() };
            const changes = { state: ['provisioning', 'ready'], nextStep: ['wait_for_provisioning', ready.nextStep] };
            record(store, audit, job, 'connection.updated', 'Connection', ready.id, changes);
            connectionEvent('connection.ready', ready);
          });
          record(store, audit, ctx, 'connection.created', 'Connection', c.id, { ...input, state: c.state });
          connectionEvent('connection.created', c);
          return r.connectionView(c);
        });
      },
    ],
    [
      'POST',
      /^\/idempotency-keys$/,
      (ctx, _id, text) => {
        const key = readKey(ctx, false);
        const body = parseObject(text);
        const data = issueKey(text);
        idempotent(idem, ctx, key, body, () => data);
      },
    ],
    [
      'POST',
      /^\/webhooks$/,
      (ctx, _id, text) => {
        const key = readKey(ctx, true);
        const body = parseObject(text);
        idempotent(idem, ctx, key, body, () => {
          const hook = createWebhook(store, ctx, body);
          record(store, audit, ctx, 'webhook.created', 'Webhook', hook.id, { url: hook.url, events: hook.events });
          return { ...webhookView(hook), signing_secret: hook.secret };
        });
      },
    ],
    [
      'GET',
      /^\/webhooks$/,
      (ctx) => {
        const hooks = store.webhooks.filter((w) => w.tenant === ctx.tenant && w.active).map(webhookView);
        ok(ctx, { count: hooks.length, webhooks: hooks });
      },
    ],
    ['GET', /^\/webhooks\/([^/]+)$/, (ctx, id) => ok(ctx, webhookView(findWebhook(store, ctx, id)))],
    [
      'DELETE',
      /^\/webhooks\/([^/]+)$/,
      (ctx, id, text) => {
        const key = readKey(ctx, true);
        const body = text.trim() === '' ? {} : parseObject(text);
        idempotent(idem, ctx, key, body, () => {
          const hook = findWebhook(store, ctx, id);
          hook.active = false;
          record(store, audit, ctx, 'webhook.destroyed', 'Webhook', hook.id, { active: false });
          return { ...webhookView(hook), deleted: true };
        });
      },
    ],
    [
      'GET',
      /^\/webhooks\/([^/]+)\/deliveries$/,
      (ctx, id) => {
        const hook = findWebhook(store, ctx, id);
        const deliveries = store.deliveries
          .filter((d) => d.webhook_id === hook.id)
          .reverse()
          .map(deliveryView);
        ok(ctx, { webhook_id: hook.id, count: deliveries.length, deliveries });
      },
    ],
    [
      'POST',
      /^\/webhook_deliveries\/([^/]+)\/redeliver$/,
      (ctx, id, text) => {
        const key = readKey(ctx, true);
        const body = text.trim() === '' ? {} : parseObject(text);
        idempotent(idem, ctx, key, body, () => {
          const d = store.deliveries.find((x) => x.id === id && x.tenant === ctx.tenant);
          const hook = d && store.webhooks.find((w) => w.id === d.webhook_id && w.active);
          if (!d || !hook) throw new ApiError('not_found', 'webhook delivery not found');
          const again = store.options.redeliverInPlace
            ? retryNow(store, hook, d)
            : enqueue(store, hook, d.event_id, d.event, d.body, d.id);
          record(store, audit, ctx, 'webhook_delivery.redelivered', 'WebhookDelivery', again.id, {
            redelivery_of: d.id,
          });
          return deliveryView(again);
        });
      },
    ],
    ['GET', /^\/audit-log$/, (ctx) => auditIndex(store, audit, ctx)],
  ];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const ctx = newCtx(req, res);
    try {
      // Rails answers HEAD through the GET route (Node leaves the body out) and ignores a trailing slash.
      const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
      if (ctx.url.pathname.length > 1) ctx.url.pathname = ctx.url.pathname.replace(/\/+$/, '');
      const path = ctx.url.pathname;
      if (method === 'POST' && path === '/oauth/token')
        return tokenEndpoint(store, auth, req, res, await readBody(req));
      if (servePublic(ctx, tokenUrl)) return;
      if (method === 'GET' && path === `${P}/stream`) return openStream(store, ctx);
      const sub = path.startsWith(`${P}/`) ? path.slice(P.length) : '';
      const route = routes.find(([m, re]) => m === method && re.test(sub));
      if (!route) throw new ApiError('not_found', 'no route matches this method and path');
      throttle(store, auth, ctx);
      authenticate(auth, ctx);
      const text = method === 'GET' ? '' : await readBody(req);
      route[2](ctx, (route[1].exec(sub) ?? [])[1] ?? '', text);
    } catch (err) {
      if (err instanceof ApiError) return fail(ctx, err);
      // Internal details stay in the server log; the answer names only the request id.
      console.error(`[mangrove] ${ctx.requestId}`, err);
      fail(ctx, new ApiError('internal', 'internal error, quote the request id to support'));
    }
  }

  const listen = (): Promise<Server> =>
    new Promise((resolve) => {
      const server = createServer((req, res) => void handle(req, res));
      server.keepAliveTimeout = 5000;
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  const main = await listen();
  const alt = await listen();
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  tokenUrl = `${url(main)}/oauth/token`;

  return {
    baseUrl: url(main),
    altBaseUrl: url(alt),
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT_ID,
    clientSecret: auth.clientSecret,
    tokenUrl,
    async close() {
      store.closed = true;
      for (const t of store.timers) clearTimeout(t);
      for (const res of store.sseClients) res.end();
      await Promise.all(
        [main, alt].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
