// startTupelo(): two loopback listeners over one state, the token service, the router.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUDIT_PUBLIC_JWK } from './audit.ts';
import { ApiError, newMeta, PUBLISHED_VERSIONS, readJson, sendError, sendJson, sendOk, VERSION } from './http.ts';
import { checkKey } from './idempotency.ts';
import { openapi, toYaml } from './openapi.ts';
import { match, ROUTES } from './routes.ts';
import { type App, newApp, type TupeloOptions } from './state.ts';
import { openStream } from './stream.ts';
import { TokenService } from './tokens.ts';
import { deliver } from './webhooks.ts';

export type { TupeloOptions };
export interface TupeloTarget {
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

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Fixed window per client, tenant and environment: a KV atomic counter per window. */
function rateLimit(app: App, res: ServerResponse, who: string): void {
  const { rateLimit: limit, windowMs } = app.opts;
  const now = Date.now();
  const win = Math.floor(now / windowMs);
  const count = app.kv.sum(['ratelimit', who, 'sandbox', win], 1);
  app.kv.delete(['ratelimit', who, 'sandbox', win - 2]);
  const resetS = Math.max(1, Math.ceil(((win + 1) * windowMs - now) / 1000));
  res.setHeader('x-ratelimit-limit', String(limit));
  res.setHeader('x-ratelimit-remaining', String(Math.max(0, limit - count)));
  res.setHeader('x-ratelimit-reset', String(resetS));
  if (count > limit) {
    throw new ApiError('rate_limited', 'Too many calls in this window.', `limit ${limit} per ${windowMs} ms`, {
      'retry-after': String(resetS),
    });
  }
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse, base: string, closers: Set<() => void>) {
  const meta = newMeta();
  try {
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    if (url.pathname === '/token') return await app.tokens.handle(req, res);
    if (url.pathname === '/.well-known/jwks.json') return sendJson(res, 200, app.tokens.jwks());
    if (url.pathname === '/.well-known/audit-key.json') return sendJson(res, 200, { keys: [AUDIT_PUBLIC_JWK] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return sendJson(res, 200, {
        issuer: base,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/.well-known/jwks.json`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
    const { route, params } = match(method, url.pathname);
    if (!route) throw new ApiError('not_found', 'No such path.');
    if (route.path.endsWith('/stream')) return openStream(app, req, res, url, closers);
    if (route.path.endsWith('/openapi.json')) return sendJson(res, 200, openapi(`${base}/api/public/v1`));
    if (route.path.endsWith('/openapi.yaml')) {
      res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8' });
      return res.end(`${toYaml(openapi(`${base}/api/public/v1`)).trimStart()}\n`);
    }
    if (!route.handle) {
      return sendOk(res, meta, {
        service: 'network-connections',
        surface: 'public',
        version: VERSION,
        authentication: {
          type: 'oauth2',
          flow: 'client_credentials',
          tokenUrl: `${base}/token`,
          tokenFormat: 'JWT (EdDSA)',
          tokenLifetimeSeconds: app.opts.tokenLifetimeS,
          tenantHeader: 'x-service-tenant',
        },
        idempotency: {
          header: 'Idempotency-Key',
          pattern: '^[A-Za-z0-9._:-]{8,128}$',
          validitySeconds: 3600,
          scope: 'client, tenant and key',
        },
        routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
      });
    }
    const auth = header(req, 'authorization') ?? '';
    const claims = /^bearer /i.test(auth) ? app.tokens.check(auth.slice(7).trim()) : undefined;
    if (!claims)
      throw new ApiError('unauthorized', 'A valid bearer token is required.', undefined, {
        'www-authenticate': 'Bearer realm="tupelo"',
      });
    const tenant = header(req, 'x-service-tenant');
    if (!tenant) throw new ApiError('invalid_request', 'Header x-service-tenant is required.');
    if (!claims.tenants.includes(tenant))
      throw new ApiError('forbidden', 'This access is not released for this tenant.');
    rateLimit(app, res, `${claims.sub}|${tenant}`);
    const sv = header(req, 'service-version');
    if (app.opts.versionRequired && !sv)
      throw new ApiError('invalid_request', 'Header Service-Version is required.', `current: ${VERSION}`);
    // An unknown or earlier value is not refused: the current version answers, and says so in a header.
    if (sv && sv !== VERSION)
      res.setHeader(
        'x-service-version-note',
        `${PUBLISHED_VERSIONS.includes(sv) ? 'earlier' : 'unknown'} version ${sv}; answered as ${VERSION}`,
      );
    const key = route.key ? checkKey(header(req, 'idempotency-key'), route.key === 'required') : undefined;
    const body = route.body ? await readJson(req) : {};
    const r = await route.handle({
      app,
      tenant,
      clientId: claims.sub,
      tokenExp: claims.exp,
      params,
      query: url.searchParams,
      body,
      key,
      requestId: meta.requestId,
      method,
      path: url.pathname,
    });
    if (key) meta.idempotencyKey = key;
    if (r.replayed) meta.replayed = true;
    sendOk(res, meta, r.data);
  } catch (e) {
    if (res.headersSent) return void res.end();
    sendError(res, meta, e instanceof ApiError ? e : new ApiError('internal', 'Fault on the service side.'));
  }
}

/** Starts tupelo on two loopback ports sharing one state. */
export async function startTupelo(options: TupeloOptions = {}): Promise<TupeloTarget> {
  const clientId = 'tupelo-partner';
  const clientSecret = `tps_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const tenants = ['tupelo-harbor', 'tupelo-ridge'];
  const tokens = new TokenService(
    [{ id: clientId, secret: clientSecret, tenants }],
    options.tokenLifetimeS ?? 300,
    'tupelo',
  );
  const app = newApp(tokens, options);
  app.kv.listenQueue((m) => deliver(app, m as { tenant: string; webhookId: string; deliveryId: string }));
  const closers = new Set<() => void>();
  const listen = async (): Promise<[Server, string]> => {
    const holder: { base: string } = { base: '' };
    const s = createServer((req, res) => void handle(app, req, res, holder.base, closers));
    s.keepAliveTimeout = 4000;
    await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
    holder.base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    return [s, holder.base];
  };
  const [main, baseUrl] = await listen();
  const [alt, altBaseUrl] = await listen();
  tokens.issuer = baseUrl;
  return {
    baseUrl,
    altBaseUrl,
    tenant: tenants[0] ?? '',
    otherTenant: tenants[1] ?? '',
    foreignTenant: 'tupelo-closed',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}/token`,
    close: async () => {
      app.kv.close();
      for (const c of [...closers]) c();
      for (const s of [main, alt]) {
        s.closeAllConnections();
        await new Promise<void>((ok) => s.close(() => ok()));
      }
    },
  };
}
