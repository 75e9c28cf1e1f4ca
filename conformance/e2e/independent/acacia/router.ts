// The experience API's flow: policies first (OAuth + client-id enforcement, SLA rate limit), then version,
// tenant, Idempotency-Key, body validation, the Object Store, and the system call. A thrown ApiError is
// rendered by the global error handler; anything else is a 500 `internal` naming only the correlation id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readAudit } from './audit.ts';
import { CLIENT, TENANTS } from './catalog.ts';
import * as conn from './connections.ts';
import {
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  fail,
  header,
  newCorrelationId,
  PUBLISHED_VERSIONS,
  parseJsonObject,
  readBody,
  send,
  sendRaw,
} from './http.ts';
import { authenticate, issueToken, METADATA_PATH, metadata, resolveTenant, TOKEN_PATH } from './oauth.ts';
import { fingerprint, lookup, readKey, remember } from './object-store.ts';
import { openApiDocument, openApiYaml, selfDescription } from './openapi.ts';
import { countCall } from './rate-limit.ts';
import { matchPath, type RouteDef } from './route-table.ts';
import type { State } from './state.ts';
import { openStream, resumeFrom } from './stream.ts';
import * as hooks from './webhooks.ts';

type Handler = (state: State, ctx: Ctx, body: Record<string, unknown>, params: Record<string, string>) => unknown;

const t = (ctx: Ctx) => ctx.tenant ?? '';
const HANDLERS: Record<string, Handler> = {
  getSelfDescription: (_s, ctx) => selfDescription(ctx),
  listProviders: (_s, ctx) => conn.listProviders(ctx),
  listConnectors: (_s, ctx) => conn.listConnectors(ctx),
  listCapabilities: () => conn.listCapabilities(),
  checkCapability: (_s, _c, body) => conn.checkCapability(body),
  listConnections: (s, ctx) => conn.listConnections(s, t(ctx)),
  createConnection: (s, ctx, body) => conn.createConnection(s, ctx, t(ctx), body),
  createIdempotencyKey: (s, _c, body) => conn.issueKey(s, body),
  createWebhook: (s, ctx, body) => hooks.registerWebhook(s, ctx, t(ctx), body),
  getAuditLog: (s, ctx) => readAudit(s.audit, ctx, t(ctx), s.options.auditOldestFirst === true),
  getInfo: (s, ctx) => ({
    tenant: t(ctx),
    clientId: ctx.clientId,
    environment: 'sandbox',
    slaTier: CLIENT.slaTier,
    rateLimit: { limit: s.limiter.limit, windowSeconds: s.limiter.windowMs / 1000 },
  }),
  deleteWebhook: (s, ctx, _b, p) => hooks.deleteWebhook(s, ctx, t(ctx), p.webhookId ?? ''),
  listDeliveryAttempts: (s, ctx, _b, p) => hooks.deliveryLog(s, ctx, t(ctx), p.webhookId ?? ''),
  replayDeliveryAttempt: (s, ctx, _b, p) => hooks.redeliver(s, ctx, t(ctx), p.webhookId ?? '', p.deliveryId ?? ''),
};

/** Body validation before the Object Store is asked (a refused body never claims the key). */
const VALIDATORS: Record<string, (body: Record<string, unknown>) => void> = {
  createConnection: conn.validateConnection,
  createWebhook: hooks.validateWebhook,
};

/** RAML habit (ACACIA_ABSOLUTE_SERVERS): the document's server is the absolute address it was asked on. */
function origin(state: State, ctx: Ctx): string {
  return state.options.absoluteServers ? ctx.baseUrl : '';
}

function version(state: State, ctx: Ctx): void {
  const v = header(ctx, 'service-version');
  if (v === undefined) {
    if (state.options.serviceVersionRequired)
      throw new ApiError(
        'invalid_request',
        'The Service-Version header is required.',
        `Service-Version: one of ${PUBLISHED_VERSIONS.join(', ')}`,
      );
    return;
  }
  if (!PUBLISHED_VERSIONS.includes(v.trim())) {
    throw new ApiError(
      'invalid_request',
      'The Service-Version is not published.',
      `Service-Version: one of ${PUBLISHED_VERSIONS.join(', ')}`,
    );
  }
  ctx.version = v.trim();
}

async function flow(state: State, ctx: Ctx, route: RouteDef, params: Record<string, string>): Promise<void> {
  if (route.auth) {
    authenticate(state.tokens, ctx);
    const tenant = header(ctx, 'x-service-tenant') ?? '';
    const tier =
      state.options.tenantTiers && tenant === TENANTS.other ? Math.floor(state.limiter.limit / 2) : state.limiter.limit;
    const headers = countCall(state.limiter, `${ctx.clientId}|${tenant}|sandbox`, tier);
    for (const [k, v] of Object.entries(headers)) ctx.res.setHeader(k, v);
  }
  version(state, ctx);
  if (route.since && ctx.version < route.since) {
    throw new ApiError(
      'not_found',
      'This resource is not part of the requested version.',
      `Service-Version: offered from ${route.since}`,
    );
  }
  if (route.auth) resolveTenant(ctx);
  if (route.operationId === 'getStream') {
    resumeFrom(ctx);
    openStream(state.stream, ctx, state.options.streamMaxMs);
    return;
  }
  if (route.operationId === 'getOpenApi') {
    sendRaw(ctx, 200, openApiDocument(ctx.version, origin(state, ctx)));
    return;
  }
  const key = route.key === 'none' ? undefined : readKey(ctx, route.key === 'required');
  let body: Record<string, unknown> = {};
  if (route.body) body = parseJsonObject(await readBody(ctx.req));
  else if (route.method !== 'GET') await readBody(ctx.req);
  VALIDATORS[route.operationId]?.(body);
  const handler = HANDLERS[route.operationId];
  if (!handler) throw new ApiError('not_found', 'The resource does not exist.');
  if (key === undefined) {
    send(ctx, handler(state, ctx, body, params));
    return;
  }
  const fp = fingerprint(state.store, ctx, body);
  const earlier = lookup(state.store, ctx, key, fp);
  if (earlier) {
    ctx.replayed = true;
    let data = earlier.data;
    if (state.options.redactKeyOnReplay && route.operationId === 'createWebhook') {
      data = { ...(data as Record<string, unknown>), signingKey: undefined };
    }
    send(ctx, data);
    return;
  }
  const data = handler(state, ctx, body, params);
  remember(state.store, ctx, key, fp, structuredClone(data));
  send(ctx, data);
}

export async function handle(state: State, req: IncomingMessage, res: ServerResponse, baseUrl: string): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://acacia.invalid');
  let path = url.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path,
    query: url.searchParams,
    correlationId: newCorrelationId(),
    version: CURRENT_VERSION,
    baseUrl,
  };
  try {
    if (path === METADATA_PATH && ctx.method === 'GET') {
      sendRaw(ctx, 200, metadata(new URL(baseUrl).origin));
      return;
    }
    if (path === TOKEN_PATH && ctx.method === 'POST') {
      issueToken(state.tokens, req, await readBody(req), res);
      return;
    }
    const yaml = /^\/api\/public\/v1\/openapi\/(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(path);
    if (yaml?.[1] && PUBLISHED_VERSIONS.includes(yaml[1]) && ctx.method === 'GET') {
      if (yaml[2] === 'json') sendRaw(ctx, 200, openApiDocument(yaml[1], origin(state, ctx)));
      else {
        res.writeHead(200, {
          'content-type': 'application/yaml; charset=utf-8',
          'x-correlation-id': ctx.correlationId,
        });
        res.end(openApiYaml(yaml[1], origin(state, ctx)));
      }
      return;
    }
    const match = matchPath(path);
    const route = match?.rows.find((r) => r.method === ctx.method);
    if (!match || !route) {
      throw new ApiError(
        'not_found',
        'The resource does not exist.',
        match ? `${ctx.method}: not offered on this path` : 'path: no such resource',
        'Compare the path with GET /api/public/v1.',
      );
    }
    await flow(state, ctx, route, match.params);
  } catch (e) {
    if (e instanceof ApiError) fail(ctx, e);
    else
      fail(
        ctx,
        new ApiError(
          'internal',
          'A fault occurred on the service side.',
          undefined,
          'Note the request id and inform support.',
        ),
      );
  }
}
