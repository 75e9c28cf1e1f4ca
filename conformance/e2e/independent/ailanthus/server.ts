// The Helidon SE server ported to node:http: two listeners (main and alternate address) over one store; the
// filters run in Helidon's order (version, security, tenant, rate limiter) before the route's handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, metadata, resolveTenant, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { type App, handle, newApp } from './handlers.ts';
import { ApiError, type Ctx, fail, newCtx, VERSIONS } from './http.ts';
import { origin } from './public.ts';
import { acquirePermission } from './rate-limit.ts';
import { match } from './routes.ts';
import { type AilanthusOptions, newStore } from './state.ts';

async function serve(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ctx: Ctx = newCtx(req, res);
  const path = ctx.url.pathname;
  if (path === TOKEN_PATH) return tokenEndpoint(app.store, req, res);
  if (path.startsWith('/.well-known/oauth-authorization-server')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify(metadata(origin(ctx))));
  }
  try {
    const asked = req.headers['service-version'];
    if ((typeof asked !== 'string' || asked === '') && app.store.options.requireServiceVersion) {
      throw new ApiError(400, 'invalid_request', 'Header Service-Version is required', VERSIONS.join(', '));
    }
    if (typeof asked === 'string' && asked !== '') {
      if (!VERSIONS.includes(asked)) throw new ApiError(400, 'invalid_request', 'Unknown Service-Version', asked);
      ctx.version = asked;
    }
    const found = match(req.method ?? 'GET', path);
    // A public stream opened with credentials is the tenant's own stream.
    const wantsAuth = found?.route.auth || (found?.route.path === '/stream' && !!req.headers.authorization);
    if (wantsAuth) {
      authenticate(app.store, ctx);
      resolveTenant(app.store, ctx);
    }
    acquirePermission(app.store, ctx);
    if (!found) throw new ApiError(404, 'not_found', 'No such resource');
    await handle(app, ctx, `${found.route.method} ${found.route.path}`, found.params);
  } catch (e) {
    if (res.headersSent) return void res.end();
    fail(ctx, e instanceof ApiError ? e : new ApiError(500, 'internal', 'Internal fault; quote the request id'));
  }
}

function listen(app: App): Promise<Server> {
  const server = createServer((req, res) => void serve(app, req, res));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const port = (s: Server) => (s.address() as AddressInfo).port;

/**
 * Starts ailanthus on two loopback ports over one store.
 * @example const t = await startAilanthus({ rateLimit: 250, windowMs: 5000 }); await t.close();
 */
export async function startAilanthus(options: AilanthusOptions = {}) {
  const app = newApp(newStore(options));
  const main = await listen(app);
  const alt = await listen(app);
  const baseUrl = `http://127.0.0.1:${port(main)}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${port(alt)}`,
    tenant: 'T-ROSEHIP',
    otherTenant: 'T-QUAYSIDE',
    foreignTenant: 'T-FOXGLOVE',
    clientId: 'ailanthus-ci',
    clientSecret: 'ail-secret-7c1e9b',
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close(): Promise<void> {
      app.hub.close();
      app.deliveries.close();
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise((r) => s.close(() => r(undefined)))));
    },
  };
}
