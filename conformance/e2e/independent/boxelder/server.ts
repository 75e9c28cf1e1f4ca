// startBoxelder: two loopback listeners (main and alternate address) over one store, like one Zig
// process accepting on two sockets. Every call runs the same pipeline: version, route, auth, handler,
// and any thrown ApiError is written by the one mapping in http.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, CLIENT, rateLimit, TENANTS } from './auth.ts';
import { ApiError, fail, newCtx, readVersion } from './http.ts';
import { match } from './routes.ts';
import { newStore, type Options, type Store } from './state.ts';
import { closeStreams } from './stream.ts';

export type BoxelderOptions = Options;

async function handle(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ctx = newCtx(store, req, res);
  try {
    const found = match(req.method ?? 'GET', ctx.url.pathname);
    if (!found) throw new ApiError('not_found', 'no such route');
    if (found.route.path === '/auth/token') return await found.route.handle(ctx, found.params);
    readVersion(ctx);
    if (found.route.auth) authenticate(ctx);
    else if (!found.route.path.endsWith('/stream')) rateLimit(ctx, `ip:${req.socket.remoteAddress}`);
    await found.route.handle(ctx, found.params);
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    fail(ctx, err);
  }
}

function listen(store: Store): Promise<Server> {
  const server = createServer((req, res) => void handle(store, req, res));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function startBoxelder(options: BoxelderOptions = {}) {
  const store = newStore(options);
  const main = await listen(store);
  const alt = await listen(store);
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const baseUrl = url(main);
  return {
    baseUrl,
    altBaseUrl: url(alt),
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    tokenUrl: `${baseUrl}/auth/token`,
    store,
    async close(): Promise<void> {
      for (const t of store.timers) clearTimeout(t);
      store.timers.clear();
      closeStreams(store);
      for (const s of [main, alt]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
