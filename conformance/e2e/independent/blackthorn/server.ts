// startBlackthorn: two loopback listeners (main and alternate address) over one store, and the interceptor
// chain every call passes: route, version, auth + tenancy, rate limit, body, handler, error envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, fail, newRequestId, readRaw } from './http.ts';
import { rateLimit } from './rate-limit.ts';
import { match, ROUTES } from './routes.ts';
import { CURRENT, createStore, type Options, type Store, VERSIONS } from './state.ts';

async function handle(store: Store, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const ctx: Ctx = { req, res, url, requestId: newRequestId(), version: CURRENT, headers: {}, params: {} };
  try {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') ctx.raw = await readRaw(req);
    if (method === 'POST' && url.pathname === TOKEN_PATH) return tokenEndpoint(store, ctx);
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    let found: { route: (typeof ROUTES)[number]; params: Record<string, string> } | undefined;
    for (const route of ROUTES) {
      const params = route.method === method ? match(route.path, path) : undefined;
      if (params) {
        found = { route, params };
        break;
      }
    }
    if (!found) throw new ApiError(404, 'not_found', 'No such route', `${method} ${url.pathname}`);
    ctx.params = found.params;
    const asked = req.headers['service-version'];
    if (typeof asked === 'string' && asked !== '') {
      // Optional header; a known version is echoed in meta.version, an unknown one is refused.
      if (!(VERSIONS as readonly string[]).includes(asked)) {
        throw new ApiError(
          400,
          'invalid_request',
          'Unknown Service-Version',
          `Service-Version: should be either ${VERSIONS.join(', ')}`,
        );
      }
      ctx.version = asked;
    }
    if (found.route.auth) {
      authenticate(store, ctx);
      rateLimit(store, ctx);
    }
    await found.route.handler(store, ctx);
  } catch (e) {
    if (res.headersSent) return void res.end();
    if (e instanceof ApiError) return fail(ctx, e);
    // Internal details stay in the log; the caller gets the request id only.
    console.error(`[blackthorn] ${ctx.requestId}`, e);
    fail(
      ctx,
      new ApiError(500, 'internal', 'Fault on the service side', undefined, `Quote request id ${ctx.requestId}`),
    );
  }
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

export async function startBlackthorn(options: Options = {}) {
  const store = createStore(options);
  const servers = [0, 1].map(() => createServer((req, res) => void handle(store, req, res)));
  const [main, alt] = await Promise.all(servers.map(listen));
  const baseUrl = `http://127.0.0.1:${main}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${alt}`,
    tenant: 'ten-copper-kettle',
    otherTenant: 'ten-iron-skillet',
    foreignTenant: 'ten-salt-cellar',
    clientId: store.clientId,
    clientSecret: store.clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    store,
    async close() {
      for (const t of store.timers) clearTimeout(t);
      store.timers.clear();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
