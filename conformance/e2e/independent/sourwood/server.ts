// sourwood: the interface as an OpenResty team builds it (nginx + Lua, lua-resty-jwt, lua-resty-limit-traffic,
// lua-cjson, shared dicts, Redis for idempotency), ported to node:http. Two listeners share one store, as two
// nginx `server` blocks share the lua_shared_dicts.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLIENT_ID, tokenEndpoint, tokenJson } from './auth.ts';
import { ApiError, type Ctx, CURRENT_VERSION, fail, PREFIX, rawBody, requestId, VERSIONS } from './http.ts';
import { IdempotencyStore } from './idempotency.ts';
import { type Deps, dispatch } from './routes.ts';
import { createStore, type SourwoodOptions, TENANTS } from './state.ts';
import { EventBus } from './stream.ts';

export type { SourwoodOptions } from './state.ts';

async function handle(d: Deps, secret: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/oauth2/token') {
    const form = new URLSearchParams(req.method === 'POST' ? await rawBody(req) : '');
    const r = req.method === 'POST' ? tokenEndpoint(d.store, secret, form, req.headers.authorization) : undefined;
    const answer = r ?? { status: 405, body: { error: 'invalid_request' } };
    res.writeHead(answer.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(tokenJson(answer.body));
    return;
  }
  const ctx: Ctx = { req, res, url, requestId: requestId(), version: CURRENT_VERSION, headers: {} };
  try {
    const asked = req.headers['service-version'];
    const policy = d.store.options.serviceVersion;
    if (typeof asked === 'string' && asked.trim() !== '') {
      // An unknown value is refused (strict) or answered as the current version (lenient): not shown either way.
      if (VERSIONS.includes(asked.trim())) ctx.version = asked.trim();
      else if (policy !== 'lenient') {
        throw new ApiError(400, 'invalid_request', `unknown Service-Version; one of ${VERSIONS.join(', ')}`);
      }
    } else if (policy === 'required') {
      throw new ApiError(400, 'invalid_request', 'header Service-Version is required');
    }
    if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) {
      throw new ApiError(404, 'not_found', 'no such route');
    }
    await dispatch(d, ctx);
  } catch (e) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    fail(ctx, e instanceof ApiError ? e : new ApiError(500, 'internal', 'internal error'));
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Starts sourwood on two loopback ports sharing one store.
 * @example const t = await startSourwood({ rateLimit: 250, windowMs: 5000 }); ...; await t.close();
 */
export async function startSourwood(options: SourwoodOptions = {}) {
  const store = createStore(options);
  const d: Deps = { store, bus: new EventBus(store.options.sseUnnamed), idem: new IdempotencyStore() };
  const clientSecret = randomBytes(24).toString('base64url');
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      handle(d, clientSecret, req, res).catch(() => res.destroy());
    }),
  );
  const [main, alt] = await Promise.all(servers.map(listen));
  const baseUrl = `http://127.0.0.1:${main}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${alt}`,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.locked,
    clientId: CLIENT_ID,
    clientSecret,
    tokenUrl: `${baseUrl}/oauth2/token`,
    async close() {
      for (const t of store.timers) clearTimeout(t);
      d.bus.closeAll();
      await Promise.all(
        servers.map((s) => {
          s.closeAllConnections();
          return new Promise<void>((r) => s.close(() => r()));
        }),
      );
    },
  };
}
