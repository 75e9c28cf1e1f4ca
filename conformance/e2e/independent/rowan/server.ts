// rowan: an independent deployment of the interface, in the style of a Django REST Framework team behind
// AWS ALB + CloudFront. Two loopback ports (main and alternate address) share one state.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Access, authenticate, tokenEndpoint, tokenOf } from './auth.ts';
import { ApiError, type Ctx, fail, ok, parseObject, readBody, requestIdOf, sendJson, versionOf } from './http-util.ts';
import { keyOf, withIdempotency } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import { ROUTES } from './routes.ts';
import { type RowanOptions, RowanState } from './state.ts';
import { serveStream } from './stream.ts';
import { toYaml } from './yaml.ts';

export interface RowanTarget {
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

const P = '/api/public/v1';

function selfDescription(ctx: Ctx): Record<string, unknown> {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}/o/token/`,
      metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
      header: 'Authorization: Bearer <token>',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', validitySeconds: 86400 },
    documents: { json: `${P}/openapi.json`, yaml: `${P}/openapi.yaml` },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, state: RowanState, access: Access): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  // Both spellings answer (APPEND_SLASH off, optional slash in every urlpattern): no redirect.
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const ctx: Ctx = {
    req,
    res,
    requestId: requestIdOf(req),
    version: versionOf(req),
    path,
    query: url.searchParams,
    origin,
    headers: {},
  };
  ctx.headers['X-Request-Id'] = ctx.requestId;
  try {
    if (path === '/o/token' && req.method === 'POST')
      return tokenEndpoint(req, res, await readBody(req), state, access);
    if (path === '/.well-known/oauth-authorization-server' && req.method === 'GET') {
      return void sendJson(ctx, 200, {
        issuer: origin,
        token_endpoint: `${origin}/o/token/`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const matching = ROUTES.filter((r) => r.pattern.test(path));
    const route = matching.find((r) => r.method === method);
    if (!route) {
      if (matching.length > 0) ctx.headers.Allow = matching.map((r) => r.method).join(', ');
      throw new ApiError('not_found', matching.length > 0 ? 'Method not offered on this path.' : 'No such endpoint.');
    }
    if (!route.auth) {
      if (path === P) return ok(ctx, selfDescription(ctx));
      if (path === `${P}/openapi.json`) return void sendJson(ctx, 200, openApiDocument());
      if (path === `${P}/openapi.yaml`) {
        res.writeHead(200, { 'Content-Type': 'application/yaml; charset=utf-8', 'X-Request-Id': ctx.requestId });
        return void res.end(toYaml(openApiDocument()));
      }
      // The stream is public; a caller naming a valid token and a released tenant gets that tenant's stream.
      const t = tokenOf(req, state);
      const tenant = String(req.headers['x-service-tenant'] ?? '');
      return serveStream(ctx, state, t && access.released.includes(tenant) ? `tenant:${tenant}` : 'public');
    }
    const caller = authenticate(ctx, state, access);
    const params = (route.pattern.exec(path) ?? []).slice(1);
    if (route.read) return route.read(ctx, state, caller, params);
    const write = route.write;
    if (!write) throw new ApiError('not_found', 'No such endpoint.');
    const key = keyOf(ctx, write.key);
    const body = parseObject(await readBody(req));
    withIdempotency(ctx, state, `${caller.clientId}\u0000${caller.tenant}`, key, write.operation, body, () =>
      write.perform(ctx, state, caller, body, params),
    );
  } catch (err) {
    if (err instanceof ApiError) return fail(ctx, err);
    // The exception handler never leaks internals: the request id is all support needs.
    fail(ctx, new ApiError('internal', 'A server error occurred. Quote the request id to support.'));
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startRowan(options: RowanOptions = {}): Promise<RowanTarget> {
  const state = new RowanState(options);
  const access: Access = {
    clientId: 'rowan-conformance',
    clientSecret: randomBytes(18).toString('base64url'),
    released: ['rowan-harbour', 'rowan-quay'],
    known: ['rowan-harbour', 'rowan-quay', 'rowan-pier'],
  };
  const servers = [0, 1].map(() => {
    const s = createServer((req, res) => void handle(req, res, state, access));
    s.keepAliveTimeout = 60_000; // the ALB's idle timeout
    return s;
  });
  const [main, alt] = await Promise.all(servers.map(listen));
  const baseUrl = `http://127.0.0.1:${main}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${alt}`,
    tenant: 'rowan-harbour',
    otherTenant: 'rowan-quay',
    foreignTenant: 'rowan-pier',
    clientId: access.clientId,
    clientSecret: access.clientSecret,
    tokenUrl: `${baseUrl}/o/token/`,
    close: async () => {
      for (const t of state.timers) clearTimeout(t);
      await Promise.all(
        servers.map(
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
