// Basswood: the interface as a Sinatra + Sequel team would deploy it, ported to node:http. One store, two
// loopback listeners (the main and the alternate address). The request pipeline mirrors the Rack stack:
// version check, `before` filters (bearer token, tenant), rack-attack, idempotency middleware, the route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerClient, checkTenant, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { type Ctx, Halt, meta, newRequestId, parseJsonBody, readBody, sendError, sendJson } from './http.ts';
import { requireKey, withIdempotency } from './idempotency.ts';
import { match } from './routes.ts';
import { API, type BasswoodOptions, createStore, type Store, VERSION, VERSIONS } from './state.ts';
import { closeStreams, publish } from './stream.ts';
import { throttle } from './throttle.ts';

function dispatch(ctx: Ctx): void {
  const sv = ctx.req.headers['service-version'];
  const asked = Array.isArray(sv) ? sv[0] : sv;
  if (asked !== undefined && !VERSIONS.includes(asked.trim())) {
    throw new Halt(
      400,
      'invalid_request',
      'Unknown Service-Version.',
      `Known versions: ${VERSIONS.join(', ')}`,
      'Send a published version or leave the header out.',
    );
  }
  if (asked === undefined && ctx.store.options.versionRequired) {
    throw new Halt(
      400,
      'invalid_request',
      'Service-Version is required.',
      `Send one of: ${VERSIONS.join(', ')}`,
      'Pin your client to a version.',
    );
  }
  if (asked) ctx.version = asked.trim();
  const path = ctx.url.pathname.replace(/\/+$/, '');
  const found =
    path === API || path.startsWith(`${API}/`) ? match(String(ctx.req.method), path.slice(API.length)) : undefined;
  const tenantHeader = String(ctx.req.headers['x-service-tenant'] ?? '');
  const hasBearer = Boolean(ctx.req.headers.authorization);
  const client =
    found?.route.auth || (found && hasBearer) ? bearerClient(ctx.store, ctx.req.headers.authorization) : undefined;
  // rack-attack keys a signed-in call by its access and tenant, anything else by the caller's address.
  throttle(ctx, typeof client === 'string' ? `client:${client}:${tenantHeader}` : `ip:${ctx.req.socket.remoteAddress}`);
  if (!found)
    throw new Halt(404, 'not_found', 'The entry does not exist.', `No route ${ctx.req.method} ${ctx.url.pathname}`);
  const { route, params } = found;
  ctx.params = params;
  if (route.auth && client instanceof Halt) throw client;
  if (typeof client === 'string') {
    ctx.clientId = client;
    if (route.auth || tenantHeader) checkTenant(ctx);
  }
  if (route.key) requireKey(ctx);
  if (route.method === 'POST') ctx.body = parseJsonBody(ctx);
  if (route.key) {
    withIdempotency(ctx, () => route.handler(ctx) ?? {});
    return;
  }
  const data = route.handler(ctx);
  if (!route.raw) sendJson(ctx, 200, { ok: true, data: data ?? {}, meta: meta(ctx) });
}

async function handle(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const rawBody = await readBody(req);
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  if (req.method === 'POST' && url.pathname === TOKEN_PATH) {
    return tokenEndpoint(
      store,
      res,
      rawBody,
      String(req.headers['content-type'] ?? ''),
      String(req.headers.authorization ?? ''),
    );
  }
  const ctx: Ctx = {
    store,
    req,
    res,
    url,
    origin: `http://${host}`,
    params: {},
    body: undefined,
    rawBody,
    requestId: newRequestId(),
    version: VERSION,
    tenant: '',
    clientId: '',
    headers: {},
  };
  try {
    dispatch(ctx);
  } catch (e) {
    if (res.headersSent) return void res.end();
    sendError(
      ctx,
      e instanceof Halt
        ? e
        : new Halt(500, 'internal', 'A fault on the service side.', undefined, 'Quote the requestId to support.'),
    );
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/** Starts Basswood on two loopback ports sharing one store. */
export async function startBasswood(options: BasswoodOptions = {}) {
  const store = createStore(options);
  publish(store, 'public', 'service.status', { status: 'operational' });
  const servers = [0, 1].map(() => createServer((req, res) => void handle(store, req, res)));
  const [main, alt] = servers as [Server, Server];
  const origin = await listen(main);
  const altOrigin = await listen(alt);
  const [clientId, client] = [...store.clients.entries()][0] ?? ['', { secret: '' }];
  return {
    baseUrl: `${origin}${API}`,
    altBaseUrl: `${altOrigin}${API}`,
    tenant: 'copper-kettle',
    otherTenant: 'juniper-hall',
    foreignTenant: 'old-mill-tavern',
    clientId,
    clientSecret: client.secret,
    tokenUrl: `${origin}${TOKEN_PATH}`,
    store,
    async close() {
      for (const t of store.timers) clearTimeout(t);
      store.timers.clear();
      closeStreams(store);
      await Promise.all(
        servers.map((s) => {
          s.closeAllConnections();
          return new Promise<void>((resolve) => s.close(() => resolve()));
        }),
      );
    },
  };
}
