// sorrel: an independent deployment of the interface, written as a Kotlin Javalin team would build it, ported to
// node:http. Two listeners (the main and the alternate address) share one store. `before` handlers run in order:
// Service-Version, bearer token, tenant, rate limit; every ApiError is mapped to the failure envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, rateLimit, resolveTenant, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, fail, newContext, readRaw } from './http.ts';
import { info, openapiFile, openapiJson, selfDescription } from './public.ts';
import { match, ROUTES } from './routes.ts';
import { createStore, type SorrelOptions, type Store, VERSIONS } from './state.ts';

const SPECIAL: Record<string, (store: Store, ctx: ReturnType<typeof newContext>) => void> = {
  '/api/public/v1': selfDescription,
  '/api/public/v1/openapi.json': openapiJson,
  '/api/public/v1/info': info,
};

async function handle(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readRaw(req);
  if (req.url?.split('?')[0] === TOKEN_PATH) return tokenEndpoint(store, req, res, raw);
  const ctx = newContext(req, res, raw);
  try {
    const method = req.method ?? 'GET';
    const path = ctx.url.pathname.replace(/\/+$/, '') || '/';
    const version = req.headers['service-version'];
    if (version === undefined && store.options.requireServiceVersion) {
      throw new ApiError(
        'invalid_request',
        'Header Service-Version is required.',
        `Send one of ${VERSIONS.join(', ')}.`,
      );
    }
    if (typeof version === 'string' && !(VERSIONS as readonly string[]).includes(version)) {
      throw new ApiError(
        'invalid_request',
        `Unknown Service-Version ${version}.`,
        `Send one of ${VERSIONS.join(', ')}.`,
      );
    }
    let found: { route: (typeof ROUTES)[number]; params: Record<string, string> } | undefined;
    for (const route of ROUTES) {
      const params = match(route, method, path);
      if (params) {
        found = { route, params };
        break;
      }
    }
    if (!found) throw new ApiError('not_found', `No route ${method} ${path}.`);
    ctx.params = found.params;
    if (found.route.auth) {
      authenticate(store, ctx);
      resolveTenant(store, ctx);
      rateLimit(store, ctx);
    }
    if (version === '2026-06-12' && found.route.since === '2026-07-01') {
      throw new ApiError('not_found', 'The delivery log was added in 2026-07-01.');
    }
    const file = /^\/api\/public\/v1\/openapi\/([\d-]+)\.(json|yaml)$/.exec(path);
    if (file) return openapiFile(ctx, file[1] ?? '', file[2] ?? 'json');
    const handler = found.route.handler ?? SPECIAL[path];
    if (!handler) throw new ApiError('not_found');
    handler(store, ctx);
  } catch (e) {
    if (e instanceof ApiError) return fail(ctx, e);
    // Javalin's catch-all `app.exception(Exception::class)`: no internals in the answer, only the request id.
    console.error(`[sorrel] ${ctx.requestId}`, e);
    fail(ctx, new ApiError('internal'));
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Starts sorrel on two loopback ports; `close()` stops both and the delivery worker. */
export async function startSorrel(options: SorrelOptions = {}) {
  const store = createStore(options);
  const make = () =>
    createServer((req, res) => {
      handle(store, req, res).catch(() => res.destroy());
    });
  const main = make();
  const alt = make();
  const [port, altPort] = await Promise.all([listen(main), listen(alt)]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const [clientId, client] = [...store.clients.entries()][0] ?? ['', { secret: '' }];
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'trattoria-nord',
    otherTenant: 'bistro-sued',
    foreignTenant: 'cafe-ost',
    clientId,
    clientSecret: client.secret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    store,
    async close(): Promise<void> {
      for (const t of store.timers) clearTimeout(t);
      store.timers.clear();
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
