// banyan: an independent deployment of the interface, written from interface.md alone by an event-sourcing
// team. Two loopback ports share one state (main and alternate base address); startBanyan() returns both.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimiter, Tokens } from './auth.ts';
import { HOOK_ROUTES } from './hook-routes.ts';
import { openapi } from './openapi.ts';
import { ROUTES, selfDescription } from './routes.ts';
import type { BanyanOptions, Call, Route, State } from './state.ts';
import { EventStore, IdempotencyStore } from './store.ts';
import { STREAM_ROUTE } from './stream.ts';
import {
  API,
  ApiError,
  type CallCtx,
  CURRENT_VERSION,
  canonical,
  PUBLISHED_VERSIONS,
  parseObject,
  readBody,
  sendError,
  sendOk,
  uuidv7,
} from './util.ts';
import { Webhooks } from './webhooks.ts';

const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** The query parameters each route documents (strictQuery refuses the others). */
const QUERY: Record<string, string[]> = {
  '/providers': ['category'],
  '/connectors': ['capability', 'providerId', 'category'],
  '/audit-log': ['limit', 'before'],
  '/stream': ['cursor'],
};

const PUBLIC_ROUTES: Route[] = [
  {
    method: 'GET',
    path: '',
    auth: false,
    purpose: 'self-description',
    handle: (c) => ({ data: selfDescription(c, ALL_ROUTES) }),
  },
  { method: 'GET', path: '/openapi.json', auth: false, purpose: 'OpenAPI 3.1 document', handle: () => undefined },
  {
    method: 'GET',
    path: '/openapi.yaml',
    auth: false,
    purpose: 'OpenAPI 3.1 document as YAML',
    handle: () => undefined,
  },
  STREAM_ROUTE,
];
export const ALL_ROUTES: Route[] = [...PUBLIC_ROUTES, ...ROUTES, ...HOOK_ROUTES];

function match(method: string, path: string): { route?: Route; params: Record<string, string> } {
  for (const r of ALL_ROUTES) {
    if (r.method !== method) continue;
    const re = new RegExp(`^${r.path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);
    const m = re.exec(path);
    if (m) return { route: r, params: { ...m.groups } };
  }
  return { params: {} };
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ctx: CallCtx = { requestId: uuidv7(), version: CURRENT_VERSION, headers: {} };
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === '/auth/token') return state.tokens.handle(req, res, await readBody(req));
  if (url.pathname === '/.well-known/oauth-authorization-server') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(
      JSON.stringify({
        issuer: origin,
        token_endpoint: `${origin}/auth/token`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      }),
    );
  }
  try {
    const sv = req.headers['service-version'];
    if (typeof sv === 'string') {
      if (!PUBLISHED_VERSIONS.includes(sv.trim()) && !state.options.lenientServiceVersion) {
        throw new ApiError('invalid_request', 'unknown Service-Version', `published: ${PUBLISHED_VERSIONS.join(', ')}`);
      }
      ctx.version = PUBLISHED_VERSIONS.includes(sv.trim()) ? sv.trim() : CURRENT_VERSION;
    }
    const path =
      url.pathname === API || url.pathname === `${API}/`
        ? ''
        : url.pathname.startsWith(`${API}/`)
          ? url.pathname.slice(API.length)
          : undefined;
    const { route, params } = path === undefined ? { params: {} } : match(req.method ?? 'GET', path);
    if (!route) throw new ApiError('not_found', 'no such endpoint', 'see GET /api/public/v1 for the routes');
    if (route.path === '/openapi.json' || route.path === '/openapi.yaml') {
      const text = JSON.stringify(openapi(ALL_ROUTES, origin), null, 2);
      // JSON is YAML 1.2: the YAML file is the same document, byte for byte.
      res.writeHead(200, {
        'content-type': route.path.endsWith('yaml') ? 'application/yaml' : 'application/json; charset=utf-8',
        'x-request-id': ctx.requestId,
      });
      return void res.end(text);
    }
    const call: Call = { req, res, ctx, url, origin, params, tenant: '', clientId: '', body: {}, state };
    if (route.auth) authenticate(state, call);
    const unknownQuery = [...url.searchParams.keys()].filter((k) => !(QUERY[route.path] ?? []).includes(k));
    if (state.options.strictQuery && unknownQuery.length) {
      throw new ApiError('invalid_request', 'unknown query parameter', unknownQuery.join(', '));
    }
    if (route.since && ctx.version < route.since)
      throw new ApiError('not_found', `endpoint offered from version ${route.since}`);
    let key: string | undefined;
    if (route.key) {
      const k = req.headers['idempotency-key'];
      if (typeof k !== 'string' && route.key === 'required') {
        throw new ApiError('idempotency_required', 'an Idempotency-Key header is required for this call');
      }
      if (typeof k === 'string') {
        if (!KEY_PATTERN.test(k))
          throw new ApiError('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
        key = k;
      }
    }
    if (route.method === 'POST') call.body = parseObject(await readBody(req));
    if (!key) {
      const result = await route.handle(call);
      if (result) sendOk(res, ctx, result.data);
      return;
    }
    // From here on synchronous: two calls with the same key cannot both pass the lookup.
    const fingerprint = `${req.method} ${url.pathname.slice(API.length)}\n${canonical(call.body)}`;
    const earlier = state.idem.get(call.tenant, key);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) {
        throw new ApiError(
          'idempotency_conflict',
          'this Idempotency-Key was used with different content',
          'use a new key for a new operation',
        );
      }
      return sendOk(res, ctx, earlier.data, { idempotencyKey: key, replayed: true });
    }
    const result = route.handle(call) as { data: unknown };
    state.idem.put(call.tenant, key, fingerprint, 200, result.data);
    sendOk(res, ctx, result.data, { idempotencyKey: key, replayed: false });
  } catch (e) {
    if (res.headersSent) return void res.end();
    sendError(
      res,
      ctx,
      e instanceof ApiError
        ? e
        : new ApiError('internal', 'internal error', `quote requestId ${ctx.requestId} to support`),
    );
  }
}

/** Token, tenant header, release, Service-Version (when mandatory), then the tenant's bucket. */
function authenticate(state: State, call: Call): void {
  const { req, ctx } = call;
  const tenantHeader = req.headers['x-service-tenant'];
  const tenant = typeof tenantHeader === 'string' ? tenantHeader.trim() : '';
  const bucket = `${tenant || '-'}:sandbox`;
  ctx.headers = state.limiter.peek(bucket);
  const token = state.tokens.verify(req.headers.authorization);
  if (!token) {
    ctx.headers['www-authenticate'] = 'Bearer realm="banyan"';
    throw new ApiError('unauthorized', 'a valid bearer token is required');
  }
  if (!tenant) throw new ApiError('invalid_request', 'the x-service-tenant header is required');
  if (!state.tokens.client.tenants.includes(tenant))
    throw new ApiError('forbidden', 'this access is not released for the tenant');
  if (state.options.serviceVersionRequired && req.headers['service-version'] === undefined) {
    throw new ApiError('invalid_request', 'the Service-Version header is required', `current: ${CURRENT_VERSION}`);
  }
  const { ok, headers } = state.limiter.take(bucket);
  ctx.headers = headers;
  if (!ok)
    throw new ApiError(
      'rate_limited',
      'too many calls for this tenant and environment',
      `retry after ${headers['retry-after']} s`,
    );
  call.tenant = tenant;
  call.clientId = token.clientId;
}

const DEFAULTS: Required<BanyanOptions> = {
  rateLimit: 1000,
  windowMs: 60_000,
  provisionMs: 300,
  retryBaseMs: 1000,
  maxRetries: 3,
  serviceVersionRequired: false,
  auditLinkOnly: false,
  lenientServiceVersion: false,
  projectionLagMs: 0,
  streamMaxMessages: 0,
  streamMaxMs: 0,
  strictQuery: false,
  streamUnnamed: false,
  tokenLifetimeS: 3600,
  port: 0,
  altPort: 0,
};

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

export async function startBanyan(opts: BanyanOptions = {}) {
  const options = { ...DEFAULTS, ...opts };
  const client = { clientId: 'banyan-ci', clientSecret: `bnycs_${uuidv7()}`, tenants: ['banyan-fig', 'banyan-olive'] };
  const store = new EventStore();
  store.projectionLagMs = options.projectionLagMs;
  const state: State = {
    store,
    idem: new IdempotencyStore(),
    webhooks: new Webhooks(store, { retryBaseMs: options.retryBaseMs, maxRetries: options.maxRetries }),
    tokens: new Tokens(client, options.tokenLifetimeS),
    limiter: new RateLimiter(options.rateLimit, options.windowMs),
    options,
    timers: new Set(),
    tenants: [...client.tenants, 'banyan-quince'],
  };
  const servers = [0, 1].map(() => createServer((req, res) => void handle(state, req, res)));
  const [main, alt] = servers as [Server, Server];
  const baseUrl = `http://127.0.0.1:${await listen(main, options.port)}`;
  const altBaseUrl = `http://127.0.0.1:${await listen(alt, options.altPort)}`;
  return {
    baseUrl,
    altBaseUrl,
    tenant: 'banyan-fig',
    otherTenant: 'banyan-olive',
    foreignTenant: 'banyan-quince',
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    tokenUrl: `${baseUrl}/auth/token`,
    async close() {
      state.webhooks.close();
      for (const t of [...state.timers, ...store.lagTimers]) clearTimeout(t);
      await Promise.all(
        servers.map(
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
