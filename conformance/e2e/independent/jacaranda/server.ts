// jacaranda: an independent deployment of the Network Connections Service interface, written from
// interface.md alone in the style of a Go team (chi router, gRPC backend behind a JSON gateway).
// Two loopback listeners (main and alternate base address) share one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newAuditLog } from './audit.ts';
import { guard, newLimiter, readVersion, TOKEN_PATH, tokenEndpoint } from './guard.ts';
import { ApiError, type Ctx, fail, newCtx, readJsonObject, send, VERSIONS } from './http.ts';
import { lookup, newKeyStore, readKey, remember } from './idempotency.ts';
import { BASE, openapi, ROUTES } from './openapi.ts';
import * as ops from './operations.ts';
import { type Choices, newState } from './state.ts';
import { closeStreams, newStream, openStream } from './stream.ts';
import * as wh from './webhooks.ts';
import { toYaml } from './yaml.ts';

/** Refusals the replayRefusals choice stores (the outcome of the operation, not of the gateway). */
const REPLAYED_REFUSALS = ['invalid_request', 'not_found', 'capability_denied'];

/** The query parameters each GET defines (strictQuery refuses others). */
const QUERY: Record<string, string[]> = {
  providers: ['category'],
  connectors: ['capability', 'providerId', 'category'],
  stream: ['cursor'],
  'audit-log': ['page_size', 'limit', 'page_token'],
  'webhook-deliveries': ['receiver', 'page_size', 'limit', 'page_token'],
};

function strictQuery(ctx: Ctx, p: string): void {
  const allowed = QUERY[p.slice(BASE.length + 1)] ?? [];
  for (const name of ctx.query.keys()) {
    if (!allowed.includes(name)) {
      throw new ApiError('invalid_request', `unknown query parameter ${name}`, {
        hint: allowed.length ? `parameters: ${allowed.join(', ')}` : 'this operation takes no parameters',
      });
    }
  }
}

export interface JacarandaOptions {
  /** Other legal choices (see Choices in state.ts). */
  choices?: Partial<Choices>;
  /** Calls per window per token and tenant (default 1000). */
  rateLimit?: number;
  /** Rate-limit window in ms (default 60 000). */
  windowMs?: number;
  /** Stream heartbeat comment interval in ms (default 2000). */
  heartbeatMs?: number;
  /** Stream numbering starts after this number (default 0). */
  streamSeqBase?: number;
  /** Each stream is ended after this many ms, as a gateway deadline would (default 0: never). */
  streamMaxMs?: number;
  /** Delay before a connection turns from pending to active (default 300 ms). */
  activationMs?: number;
  port?: number;
  altPort?: number;
}

export async function startJacaranda(options: JacarandaOptions = {}) {
  const state = newState();
  Object.assign(state.choices, options.choices ?? {});
  state.activationMs = options.activationMs ?? 300;
  const d: ops.Deployment = {
    state,
    stream: newStream(options.heartbeatMs, options.streamSeqBase, options.streamMaxMs),
    audit: newAuditLog(state.choices),
    deliveries: wh.newDeliveries(),
  };
  const rl = newLimiter(options.rateLimit ?? 1000, options.windowMs ?? 60_000);
  const keys = newKeyStore();
  let mainOrigin = '';

  /** A modifying call: the key (required or honoured), then the body, then a replay or the operation. */
  async function modify(ctx: Ctx, required: boolean, run: (body: Record<string, unknown>) => unknown) {
    const key = readKey(ctx, required);
    const body = ctx.req.method === 'DELETE' || ctx.path.endsWith(':retry') ? {} : await readJsonObject(ctx);
    // The operation gets a copy: with discardUnknown it drops fields, and the fingerprint is of what was sent.
    if (!key) return send(ctx, run(structuredClone(body)));
    const hit = lookup(keys, ctx, key, body);
    if (hit?.error) return fail(ctx, hit.error, true);
    if (hit) {
      const replay =
        state.choices.redactKeyOnReplay && ctx.path.endsWith('/webhooks')
          ? { ...(hit.data as object), signingKey: undefined }
          : hit.data;
      return send(ctx, replay, { idempotencyKey: key, replayed: true });
    }
    let data: unknown;
    try {
      data = run(structuredClone(body));
    } catch (e) {
      if (state.choices.replayRefusals && e instanceof ApiError && REPLAYED_REFUSALS.includes(e.code))
        remember(keys, ctx, key, body, undefined, e);
      throw e;
    }
    remember(keys, ctx, key, body, data);
    send(ctx, data, { idempotencyKey: key, replayed: false });
  }

  async function route(ctx: Ctx): Promise<void> {
    const m = ctx.req.method ?? 'GET';
    const p = ctx.path.length > BASE.length && ctx.path.endsWith('/') ? ctx.path.slice(0, -1) : ctx.path;
    readVersion(ctx);
    if (state.choices.strictQuery) strictQuery(ctx, p);
    if (m === 'GET' && p === BASE) {
      return send(ctx, {
        service: 'jacaranda network connections',
        surface: 'public',
        version: ctx.version,
        authentication: {
          type: 'oauth2',
          flows: ['client_credentials'],
          tokenEndpoint: `${mainOrigin}${TOKEN_PATH}`,
          header: 'Authorization: Bearer',
          tenantHeader: 'x-service-tenant',
        },
        idempotency: {
          header: 'Idempotency-Key',
          pattern: '^[A-Za-z0-9._:-]{8,128}$',
          validity: '21600s',
          required: ['POST /api/public/v1/connections', 'POST /api/public/v1/webhooks'],
        },
        serviceVersion: {
          header: 'Service-Version',
          required: 'on modifying calls',
          published: ['2026-07-01', '2026-06-12'],
        },
        webhooks: { events: wh.eventNames(state.choices), signatureHeader: 'Jacaranda-Signature' },
        routes: ROUTES,
      });
    }
    if (m === 'GET' && p === `${BASE}/openapi.json`) {
      const text = JSON.stringify(openapi(`${mainOrigin}${TOKEN_PATH}`, wh.eventNames(state.choices)));
      ctx.res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(text),
      });
      return void ctx.res.end(text);
    }
    const file = /^\/api\/public\/v1\/openapi\/([^/]+)\.(json|yaml)$/.exec(p);
    if (m === 'GET' && file?.[1] && file[2]) {
      if (!VERSIONS.includes(file[1]))
        throw new ApiError('not_found', 'no such version', { hint: VERSIONS.join(', ') });
      const doc = openapi(`${mainOrigin}${TOKEN_PATH}`, wh.eventNames(state.choices), file[1]);
      const yaml = file[2] === 'yaml';
      const text = yaml ? toYaml(doc) : JSON.stringify(doc, null, 2);
      ctx.res.writeHead(200, {
        'Content-Type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="ncs-openapi-${file[1]}.${file[2]}"`,
        'Content-Length': Buffer.byteLength(text),
      });
      return void ctx.res.end(text);
    }
    if (m === 'GET' && p === `${BASE}/stream`) return openStream(d.stream, ctx);
    const known = ROUTES.some((r) => r.auth && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/:]+')}$`).test(p));
    if (!known) throw new ApiError('not_found', 'no such endpoint', { hint: 'see GET /api/public/v1' });
    guard(state, rl, ctx);
    const tenant = ctx.tenant ?? '';
    if (m === 'GET') {
      if (p === `${BASE}/providers`) return send(ctx, ops.listProviders(ctx));
      if (p === `${BASE}/connectors`) return send(ctx, ops.listConnectors(ctx));
      if (p === `${BASE}/capabilities`) return send(ctx, ops.listCapabilities());
      if (p === `${BASE}/connections`) return send(ctx, ops.listConnections(d, ctx));
      if (p === `${BASE}/audit-log`) return send(ctx, ops.readAudit(d, ctx));
      if (p === `${BASE}/info`) return send(ctx, ops.info(ctx));
      if (p === `${BASE}/webhook-deliveries`) return send(ctx, wh.deliveryLog(state, d.deliveries, tenant, ctx.query));
    }
    if (m === 'POST') {
      if (p === `${BASE}/capabilities`) return modify(ctx, false, (b) => ops.checkCapability(d, b));
      if (p === `${BASE}/connections`) return modify(ctx, true, (b) => ops.createConnection(d, ctx, b));
      if (p === `${BASE}/idempotency-keys`) return modify(ctx, false, (b) => ops.issueKey(d, b));
      if (p === `${BASE}/webhooks`) {
        return modify(ctx, true, (b) => {
          const r = wh.createReceiver(state, tenant, wh.validateWebhook(state.choices, b));
          ops.recordWebhook(d, ctx, 'WEBHOOK_CREATED', r.id);
          return { ...wh.receiverView(r), signingKey: r.signingKey };
        });
      }
      const retry = /^\/api\/public\/v1\/webhook-deliveries\/([^/:]+):retry$/.exec(p);
      if (retry?.[1]) {
        const id = retry[1];
        return modify(ctx, true, () => wh.retryDelivery(state, d.deliveries, tenant, id));
      }
    }
    const del = /^\/api\/public\/v1\/webhooks\/([^/:]+)$/.exec(p);
    if (m === 'DELETE' && del?.[1]) {
      const id = del[1];
      return modify(ctx, true, () => {
        const r = state.webhooks.get(id);
        if (!r || r.tenant !== tenant) throw new ApiError('not_found', 'no such webhook receiver');
        state.webhooks.delete(id);
        ops.recordWebhook(d, ctx, 'WEBHOOK_DELETED', id);
        return { id, deleted: true };
      });
    }
    // chi would answer 405; the interface's error table has no such code, so an unknown method is not_found.
    throw new ApiError('not_found', 'no such operation', { hint: 'see GET /api/public/v1/openapi.json' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, baseUrl: string) {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === TOKEN_PATH) return tokenEndpoint(state, req, res);
    const ctx = newCtx(req, res, baseUrl);
    try {
      await route(ctx);
    } catch (e) {
      if (res.headersSent) return void res.destroy();
      fail(
        ctx,
        e instanceof ApiError ? e : new ApiError('internal', 'internal error, quote the request id to support'),
      );
    }
  }

  const listen = (port: number) =>
    new Promise<{ server: Server; url: string }>((resolve) => {
      let url = '';
      const server = createServer((req, res) => void handle(req, res, url));
      server.keepAliveTimeout = 5000;
      server.listen(port, '127.0.0.1', () => {
        url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        resolve({ server, url });
      });
    });
  const main = await listen(options.port ?? 0);
  const alt = await listen(options.altPort ?? 0);
  mainOrigin = main.url;
  return {
    baseUrl: main.url,
    altBaseUrl: alt.url,
    tenant: 'jac-harbor',
    otherTenant: 'jac-market',
    foreignTenant: 'jac-orchard',
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `${main.url}${TOKEN_PATH}`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      closeStreams(d.stream);
      for (const s of [main.server, alt.server]) s.closeAllConnections();
      await Promise.all([main.server, alt.server].map((s) => new Promise((r) => s.close(r))));
    },
  };
}
