// The request pipeline: version, route, authentication, tenant, rate limit, idempotency key, body, handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAuditLog } from './audit.ts';
import { createConnections } from './connections.ts';
import { openApiDocument, selfDescription } from './describe.ts';
import { createFeeds, PUBLIC_FEED } from './feed.ts';
import {
  ApiError,
  type Ctx,
  newCtx,
  PUBLISHED_VERSIONS,
  readJsonBody,
  sendError,
  sendJson,
  sendOk,
} from './http-util.ts';
import { createIdempotencyStore } from './idempotency.ts';
import type { AuthEndpoints, AuthServer } from './oauth.ts';
import { createOutbox } from './outbox.ts';
import { createRateLimiter } from './rate-limit.ts';
import { type Call, matchRoute, type Route } from './routes.ts';
import { openStream } from './stream.ts';
import { idempotencyKeyHeader } from './validate.ts';
import { createWebhooks } from './webhooks.ts';

const HEARTBEAT_MS = 30_000;

export type PipelineOptions = { eventRelayMs?: number; activationDelayMs?: number };

export function createPipeline(auth: AuthServer, endpoints: () => AuthEndpoints, options: PipelineOptions = {}) {
  const feeds = createFeeds();
  const audit = createAuditLog();
  const webhooks = createWebhooks();
  const limiter = createRateLimiter();
  const idem = createIdempotencyStore();
  const outbox = createOutbox(options.eventRelayMs ?? 0);
  const connections = createConnections((tenant, type, changed) => {
    const c = structuredClone(changed);
    outbox.enqueue(() => {
      feeds.publish(tenant, type, {
        connectionId: c.id,
        connectorId: c.connectorId,
        environment: c.environment,
        state: c.state,
      });
      webhooks.emit(tenant, type, { connection: c });
    });
  }, options.activationDelayMs);
  const services = { connections, webhooks, audit };
  const streams = new Set<() => void>();
  // The public feed carries no tenant data: only service heartbeats.
  const heartbeat = setInterval(
    () => feeds.publish(PUBLIC_FEED, 'SERVICE_HEARTBEAT', { status: 'OPERATIONAL' }),
    HEARTBEAT_MS,
  );

  function authenticate(ctx: Ctx, route: Route | undefined): Omit<Call, 'body' | 'params' | 'ctx'> {
    // Called from servers only: a browser's call (it always sends Origin) is refused before the token is looked at.
    if (ctx.req.headers.origin !== undefined) {
      throw new ApiError('forbidden', 'calls from a browser are not permitted', {
        hint: 'call the interface from your backend',
      });
    }
    const m = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(String(ctx.req.headers.authorization ?? ''));
    if (m?.[1] === undefined) {
      throw new ApiError('unauthorized', 'missing or malformed bearer token', {
        hint: `request an access token at ${endpoints().tokenEndpoint}`,
        headers: { 'WWW-Authenticate': 'Bearer realm="atlas"' },
      });
    }
    const access = auth.lookup(m[1]);
    const client = auth.clients.find((c) => c.clientId === access?.clientId);
    if (access === undefined || client === undefined) {
      throw new ApiError('unauthorized', 'access token unknown or expired', {
        hint: 'request a new access token; check the environment',
        headers: { 'WWW-Authenticate': 'Bearer realm="atlas", error="invalid_token"' },
      });
    }
    const tenant = ctx.req.headers['x-service-tenant'];
    if (typeof tenant !== 'string' || tenant.trim() === '') {
      throw new ApiError('invalid_request', 'x-service-tenant header is required', {
        hint: 'send the tenant identifier',
      });
    }
    if (!client.tenants.includes(tenant)) throw new ApiError('forbidden', 'access is not released for this tenant');
    if (route?.scope !== undefined && !access.scopes.includes(route.scope)) {
      throw new ApiError('forbidden', 'access lacks the permission for this call', {
        detail: `scope ${route.scope} required`,
      });
    }
    ctx.headers = { ...ctx.headers, ...limiter.take(client.clientId, tenant, access.environment) };
    return { access, client, tenant };
  }

  async function dispatch(ctx: Ctx): Promise<void> {
    const sv = ctx.req.headers['service-version'];
    if (sv !== undefined) {
      if (typeof sv !== 'string' || !PUBLISHED_VERSIONS.includes(sv)) {
        throw new ApiError('invalid_request', 'unknown Service-Version', {
          detail: `published: ${PUBLISHED_VERSIONS.join(', ')}`,
        });
      }
      ctx.version = sv;
    }
    const method = String(ctx.req.method);
    const { route, params, pathKnown } = matchRoute(method, ctx.url.pathname);
    if (route === undefined || (route.since !== undefined && ctx.version < route.since)) {
      throw new ApiError('not_found', pathKnown ? `method ${method} is not offered on this path` : 'no such resource', {
        hint: 'see GET /api/public/v1 for the routes',
      });
    }
    if (route.path === '/api/public/v1') return sendOk(ctx, selfDescription(ctx.version, endpoints()));
    if (route.path.endsWith('/openapi.json') || route.path.endsWith('/openapi.yaml')) {
      // Downloadable per version: ?version= picks the document, Service-Version the envelope-free answer's header.
      const asked = ctx.url.searchParams.get('version') ?? ctx.version;
      if (!PUBLISHED_VERSIONS.includes(asked))
        throw new ApiError('invalid_request', 'unknown version', {
          detail: `published: ${PUBLISHED_VERSIONS.join(', ')}`,
        });
      const yaml = route.path.endsWith('.yaml');
      // JSON is a subset of YAML 1.2, so the JSON text is also a valid YAML file.
      return sendJson(ctx, 200, openApiDocument(asked, endpoints()), {
        'Content-Type': yaml ? 'application/yaml;charset=UTF-8' : 'application/json;charset=UTF-8',
        'Content-Disposition': `inline; filename="ncs-openapi-${asked}.${yaml ? 'yaml' : 'json'}"`,
      });
    }
    if (route.path.endsWith('/stream')) {
      const hasAuth = ctx.req.headers.authorization !== undefined;
      const who = hasAuth ? authenticate(ctx, { ...route, scope: 'connections:read' }) : undefined;
      return openStream(ctx, feeds, who?.tenant ?? PUBLIC_FEED, streams);
    }
    const who = authenticate(ctx, route);
    const rawKey = ctx.req.headers['idempotency-key'];
    if (route.keyed && (rawKey === undefined || rawKey === '')) {
      throw new ApiError('idempotency_required', 'Idempotency-Key header is required for this call', {
        hint: 'send a new key per operation',
      });
    }
    ctx.idempotencyKey = idempotencyKeyHeader(rawKey);
    const body = method === 'POST' ? await readJsonBody(ctx.req) : {};
    const call: Call = { ctx, ...who, body, params };
    const handler = route.handler;
    if (handler === undefined) throw new Error(`no handler for ${route.path}`);
    if (route.keyed && ctx.idempotencyKey !== undefined) {
      const op = `${method} ${ctx.url.pathname}`;
      const { data, replayed } = idem.run(who.tenant, ctx.idempotencyKey, op, body, () =>
        structuredClone(handler(call, services)),
      );
      ctx.replayed = replayed;
      return sendOk(ctx, replayed && route.onReplay !== undefined ? route.onReplay(data) : data);
    }
    sendOk(ctx, handler(call, services));
  }

  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const url = new URL(req.url ?? '/', 'http://atlas.invalid');
      const ctx = newCtx(req, res, url);
      try {
        await dispatch(ctx);
      } catch (e) {
        if (e instanceof ApiError) return sendError(ctx, e);
        // Never send internals; the request id is all support needs.
        process.stderr.write(`atlas internal error ${ctx.requestId}: ${String(e)}\n`);
        sendError(
          ctx,
          new ApiError('internal', 'unexpected fault on the service side', { hint: 'quote meta.requestId to support' }),
        );
      }
    },
    close(): void {
      clearInterval(heartbeat);
      outbox.close();
      for (const stop of [...streams]) stop();
      webhooks.close();
      connections.close();
    },
    connections,
  };
}
