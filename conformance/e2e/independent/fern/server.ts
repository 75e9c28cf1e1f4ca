// fern: an independent deployment of the interface, written from interface.md alone in the style of a
// FastAPI + Pydantic team behind an nginx front. Two loopback ports share one state (main and
// alternate base address); the token endpoint lives on the same origin at /auth/token.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { Auth } from './auth.ts';
import { Connections } from './connections.ts';
import type { Ctx } from './http-util.ts';
import { ApiError, CURRENT_VERSION, fail, newCtx, ok, sendRaw, setTimeOffset } from './http-util.ts';
import { IdempotencyStore } from './idempotency.ts';
import { openapiDocument } from './openapi.ts';
import type { State } from './routes.ts';
import { routes } from './routes.ts';
import { Stream } from './stream.ts';
import { Webhooks } from './webhooks.ts';

const BASE = '/api/public/v1';

export interface FernOptions {
  /** Service-Version optional (the other legal choice); default: mandatory on authenticated calls. */
  versionOptional?: boolean;
  tokenLifetimeS?: number;
  rateLimit?: number;
  windowMs?: number;
  activationMs?: number;
  auditNewestFirst?: boolean;
  resendSameId?: boolean;
  /** FERN_STRICT_QUERY: unknown query parameters are a 400 (Pydantic `extra=forbid` on queries too). */
  strictQuery?: boolean;
  /** FERN_VERSION_EVERYWHERE: the public endpoints require Service-Version too. */
  versionEverywhere?: boolean;
  sseLf?: boolean;
  ssePretty?: boolean;
  streamFromStart?: boolean;
  tzOffsetMin?: number;
}

export interface Fern {
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

const PURPOSES: Record<string, string> = {
  'GET /info': 'the calling access',
  'GET /providers': 'list providers',
  'GET /connectors': 'list connectors',
  'GET /capabilities': 'capability catalog',
  'POST /capabilities': 'check a capability of a connector',
  'GET /connections': 'connections of the tenant',
  'POST /connections': 'create a connection',
  'POST /idempotency-keys': 'generate an idempotency key',
  'POST /webhooks': 'create a webhook receiver',
  'GET /webhooks': 'webhook receivers of the tenant',
  'GET /webhooks/{webhookId}/delivery-log': 'delivery log of a receiver',
  'POST /webhook-deliveries/{deliveryId}/resend': 'trigger a delivery again',
  'GET /audit-log': 'audit log with hash chain',
};

const QUERY: Record<string, string[]> = {
  '/providers': ['category'],
  '/connectors': ['capability', 'providerId', 'category'],
  '/audit-log': ['limit', 'after', 'before'],
};

function refuseUnknownQuery(ctx: Ctx, sub: string) {
  const allowed = QUERY[sub] ?? [];
  const extra = [...new Set(ctx.query.keys())].filter((k) => !allowed.includes(k));
  if (extra.length > 0) {
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      extra.map((k) => `query.${k}: extra parameters not permitted`).join('; '),
    );
  }
}

export async function startFern(options: FernOptions = {}): Promise<Fern> {
  const clientId = 'fern-ci-client';
  const clientSecret = `fern-secret-${crypto.randomUUID()}`;
  const tenants = ['fern-alpha', 'fern-beta'];
  const auth = new Auth({
    clientId,
    clientSecret,
    tenants,
    allTenants: [...tenants, 'fern-gamma'],
    tokenLifetimeS: options.tokenLifetimeS ?? 300,
    rateLimit: options.rateLimit ?? 1500,
    windowMs: options.windowMs ?? 60_000,
    versionOptional: options.versionOptional ?? false,
  });
  setTimeOffset(options.tzOffsetMin ?? 0);
  const stream = new Stream();
  if (options.sseLf) stream.eol = '\n';
  stream.pretty = options.ssePretty ?? false;
  stream.fromStart = options.streamFromStart ?? false;
  const webhooks = new Webhooks();
  webhooks.resendSameId = options.resendSameId ?? false;
  const audit = new AuditLog();
  const st: State = {
    connections: new Connections(stream, webhooks, audit, options.activationMs ?? 300),
    webhooks,
    audit,
    idem: new IdempotencyStore(),
    auditNewestFirst: options.auditNewestFirst ?? false,
  };
  const streams = new Set<() => void>();
  let tokenUrl = '';

  const selfDescription = (ctx: Ctx) => ({
    service: 'fern network connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: tokenUrl,
      tokenEndpointAuthMethods: ['client_secret_basic'],
      tokenLifetimeSeconds: auth.cfg.tokenLifetimeS,
      tenantHeader: 'x-service-tenant',
      serviceVersionHeader: auth.cfg.versionOptional ? 'optional' : 'required',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validitySeconds: 3600,
      required: ['POST /connections', 'POST /webhooks'],
    },
    routes: [
      { method: 'GET', path: BASE, purpose: 'self-description', auth: false },
      { method: 'GET', path: `${BASE}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
      { method: 'GET', path: `${BASE}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
      ...Object.entries(PURPOSES).map(([k, purpose]) => {
        const [method, path] = k.split(' ');
        return { method: method ?? 'GET', path: `${BASE}${path ?? ''}`, purpose, auth: true };
      }),
    ],
  });

  const handle = async (ctx: Ctx) => {
    const method = ctx.req.method ?? 'GET';
    if (method === 'POST' && ctx.path === '/auth/token') return auth.token(ctx.req, ctx.res);
    if (method === 'GET' && ctx.path === '/.well-known/oauth-authorization-server') {
      return sendRaw(
        ctx,
        200,
        JSON.stringify({
          issuer: new URL(tokenUrl).origin,
          token_endpoint: tokenUrl,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        }),
      );
    }
    if (!ctx.path.startsWith(BASE)) throw new ApiError('not_found', 'Not found');
    const sub = ctx.path.slice(BASE.length).replace(/\/$/, '');
    // Authenticated routes check the version in the guard, after counting the call.
    const isPublic = method === 'GET' && ['', '/openapi.json', '/stream'].includes(sub);
    if (options.versionEverywhere && isPublic) auth.checkVersion(ctx);
    if (method === 'GET' && sub === '') return ok(ctx, selfDescription(ctx));
    if (method === 'GET' && sub === '/openapi.json')
      return sendRaw(ctx, 200, JSON.stringify(openapiDocument(tokenUrl)));
    if (method === 'GET' && sub === '/stream') return stream.serve(ctx, (stop) => streams.add(stop));
    const route = routes.find(([m, re]) => m === method && re.test(sub));
    if (route) {
      const { access, tenant } = auth.guard(ctx);
      if (options.strictQuery) refuseUnknownQuery(ctx, sub);
      return route[2]({ ctx, access, tenant, params: (route[1].exec(sub) ?? []).slice(1), st });
    }
    throw new ApiError('not_found', 'Not found', `no route ${ctx.path}`);
  };

  const server = createServer((req, res) => {
    const ctx = newCtx(req, res);
    Promise.resolve()
      .then(() => handle(ctx))
      .catch((e: unknown) => {
        if (res.headersSent) return res.end();
        // Anything unexpected is an internal error without internals: the request id is all support needs.
        fail(
          ctx,
          e instanceof ApiError
            ? e
            : new ApiError('internal', 'Internal error', undefined, `Quote request id ${ctx.requestId} to support`),
        );
      });
  });
  server.keepAliveTimeout = 5000;
  const alt = createServer(server.listeners('request')[0] as Parameters<typeof createServer>[1]);
  const listen = (s: typeof server) =>
    new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
  const [port, altPort] = await Promise.all([listen(server), listen(alt)]);
  tokenUrl = `http://127.0.0.1:${port}/auth/token`;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'fern-alpha',
    otherTenant: 'fern-beta',
    foreignTenant: 'fern-gamma',
    clientId,
    clientSecret,
    tokenUrl,
    async close() {
      webhooks.close();
      st.connections.close();
      for (const stop of streams) stop();
      await Promise.all(
        [server, alt].map(
          (s) =>
            new Promise<void>((r) => {
              s.closeAllConnections();
              s.close(() => r());
            }),
        ),
      );
    },
  };
}

export { CURRENT_VERSION };
