// Teak: an independent deployment of interface.md in the manner of a Crystal/Kemal team, on node:http.
// Two loopback listeners (main and alternate address) share one in-memory store.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, countCall, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { type Ctx, checkVersion, fail, Halt, halt, newContext, ok, readBody, sendJson } from './http.ts';
import { openApiDocument } from './openapi.ts';
import { apiRoutes, match, type Route } from './routes.ts';
import { createStore, type Store, type TeakOptions, VERSION, VERSIONS } from './state.ts';
import { closeStreams } from './stream.ts';
import { toYaml } from './yaml.ts';

const P = '/api/public/v1';

function publicRoutes(routes: Route[], tokenUrl: string): (ctx: Ctx) => boolean {
  return (ctx) => {
    if (ctx.method !== 'GET') return false;
    if (ctx.path === P) {
      ok(ctx, {
        service: 'teak-network-connections',
        surface: 'public',
        version: ctx.version,
        authentication: {
          type: 'oauth2',
          flow: 'client_credentials',
          tokenEndpoint: tokenUrl,
          tenantHeader: 'x-service-tenant',
        },
        idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', retentionHours: 24 },
        routes: routes.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
      });
      return true;
    }
    const doc = /^\/api\/public\/v1\/openapi(?:\.json|\/([^/]+)\.(json|yaml))$/.exec(ctx.path);
    if (doc) {
      const version = doc[1] ?? VERSION;
      if (!(VERSIONS as readonly string[]).includes(version)) halt('not_found', `no document for ${version}`);
      const body = openApiDocument(routes, version, tokenUrl);
      if (doc[2] === 'yaml') {
        ctx.res.writeHead(200, { 'Content-Type': 'application/yaml', ...ctx.rateHeaders });
        ctx.res.end(`${toYaml(body).trimStart()}\n`);
      } else
        sendJson(
          ctx,
          200,
          body,
          doc[1] ? { 'Content-Disposition': `attachment; filename="teak-${version}.json"` } : {},
        );
      return true;
    }
    if (ctx.path === `${P}/info`) {
      ok(ctx, {
        service: 'teak-network-connections',
        environment: 'sandbox',
        version: ctx.version,
        versions: VERSIONS,
        status: 'ok',
      });
      return true;
    }
    return false;
  };
}

async function handle(
  store: Store,
  routes: Route[],
  served: (ctx: Ctx) => boolean,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const ctx = newContext(req, res);
  try {
    ctx.rawBody = await readBody(req);
    if (ctx.path === TOKEN_PATH) return tokenEndpoint(store, req, res, ctx.rawBody);
    checkVersion(ctx, store.options.versionRequired);
    const route = routes.find((r) => match(r, ctx.method, ctx.path, ctx));
    if (!route?.auth) countCall(store, ctx, `ip:${req.socket.remoteAddress}`);
    if (served(ctx)) return;
    if (!route) halt('not_found', `no route ${ctx.method} ${ctx.path}`);
    if (route.auth) authenticate(store, ctx);
    route.run(store, ctx);
    // A public document route the server did not answer (an unknown version) is not found.
    if (!ctx.res.headersSent) halt('not_found', `nothing at ${ctx.path}`);
  } catch (e) {
    if (e instanceof Halt) fail(ctx, e);
    else {
      console.error('teak internal error', e);
      fail(ctx, new Halt('internal'));
    }
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** Starts Teak on two loopback ports. */
export async function startTeak(options: TeakOptions = {}) {
  const store = createStore(options);
  const routes = apiRoutes(store);
  const main = createServer();
  const alt = createServer();
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  const tokenUrl = `${baseUrl}${TOKEN_PATH}`;
  const served = publicRoutes(routes, tokenUrl);
  for (const s of [main, alt]) s.on('request', (req, res) => void handle(store, routes, served, req, res));
  return {
    baseUrl,
    altBaseUrl,
    tenant: store.tenants[0] ?? '',
    otherTenant: store.tenants[1],
    foreignTenant: store.tenants[2],
    clientId: store.clientId,
    clientSecret: store.clientSecret,
    tokenUrl,
    async close() {
      closeStreams(store);
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise((done) => s.close(() => done(undefined)))));
    },
  };
}
