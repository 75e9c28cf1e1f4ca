// startButtonwood: two loopback listeners (the main and the alternate address) over one store, as one Akka
// HTTP `Http().newServerAt(...).bind(route)` per interface, and the token route beside the API.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tokenRoute } from './auth.ts';
import { type Ctx, fail, negotiateVersion, newRequestId, Rejection, readBody } from './http.ts';
import { route } from './routes.ts';
import { type ButtonwoodOptions, Store, VERSION } from './state.ts';

export type { ButtonwoodOptions } from './state.ts';

async function handle(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const ctx: Ctx = {
    req,
    res,
    path: url.pathname,
    query: url.searchParams,
    requestId: newRequestId(),
    version: VERSION,
    raw: '',
    headers: {},
  };
  try {
    ctx.raw = await readBody(req);
    if (req.method === 'POST' && url.pathname === '/oauth2/token') {
      tokenRoute(store, ctx);
      return;
    }
    const sv = req.headers['service-version'];
    // A strict header directive guards only the API: the token route and the public documents stay reachable.
    const api = !/^\/api\/public\/v1\/?(openapi\.json)?$/.test(url.pathname);
    ctx.version = negotiateVersion(
      typeof sv === 'string' ? sv : undefined,
      api && store.options.serviceVersionRequired,
    );
    route(store, ctx);
  } catch (e) {
    if (res.headersSent) return void res.destroy();
    // The exception handler: no internal detail leaves the service, only the request id.
    fail(
      ctx,
      e instanceof Rejection
        ? e
        : new Rejection(500, 'internal', 'An internal error occurred', undefined, `quote ${ctx.requestId}`),
    );
  }
}

function listen(store: Store): Promise<Server> {
  const server = createServer((req, res) => void handle(store, req, res));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function startButtonwood(options: ButtonwoodOptions = {}) {
  const store = new Store(options);
  const main = await listen(store);
  const alt = await listen(store);
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const baseUrl = url(main);
  const [tenant, other, foreign] = store.tenants;
  return {
    baseUrl,
    altBaseUrl: url(alt),
    tenant: tenant?.id as string,
    otherTenant: other?.id,
    foreignTenant: foreign?.id,
    clientId: store.clientId,
    clientSecret: store.clientSecret,
    tokenUrl: `${baseUrl}/oauth2/token`,
    async close() {
      for (const t of store.timers) clearTimeout(t);
      store.timers.clear();
      for (const c of store.closers) c();
      store.closers.clear();
      await Promise.all(
        [main, alt].map(
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
