// Rosewood: the Network Connections interface as a Vapor 4 + Fluent team would serve it, ported to node:http.
// Two loopback listeners share one store (the main and the alternate address); the middleware order is
// Vapor's: request id, version, route match (404), bearer + tenant guards, rate limiter, then the handler.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { Abort, type Ctx, CURRENT_VERSION, readBody, sendError, uuid, VERSIONS } from './http.ts';
import { rateLimit } from './limits.ts';
import { match } from './routes.ts';
import { CLIENT_ID, CLIENT_SECRET, RELEASED, type RosewoodOptions, Store, UNRELEASED } from './state.ts';

export type { RosewoodOptions } from './state.ts';

async function handle(store: Store, req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    params: {},
    requestId: uuid(),
    version: CURRENT_VERSION,
    headers: {},
    rawBody: '',
    base,
  };
  try {
    ctx.rawBody = await readBody(req);
    if (ctx.path === TOKEN_PATH && ctx.method === 'POST') return tokenEndpoint(ctx, store);
    // Service-Version is optional; a known earlier version is answered as itself, an unknown one refused.
    const asked = req.headers['service-version'];
    if (typeof asked === 'string' && asked !== '') {
      if (!VERSIONS.includes(asked)) {
        throw new Abort(400, `Unknown Service-Version ${asked}.`, { hint: `Known versions: ${VERSIONS.join(', ')}.` });
      }
      ctx.version = asked;
    }
    const found = match(ctx.method, ctx.path);
    if (!found) throw new Abort(404, 'Not Found');
    ctx.params = found.params;
    if (found.route.auth) {
      authenticate(ctx, store);
      rateLimit(ctx, store);
    }
    await found.route.handle(ctx, store);
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(ctx, err);
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Starts both listeners on free loopback ports.
 * @example const rw = await startRosewood({ rateLimit: 300, windowMs: 2000 }); await rw.close();
 */
export async function startRosewood(options: RosewoodOptions = {}) {
  const store = new Store(options, randomBytes(32));
  const servers: Server[] = [];
  const bases: string[] = [];
  for (let i = 0; i < 2; i++) {
    const holder: { base: string } = { base: '' };
    const server = createServer((req, res) => void handle(store, req, res, holder.base));
    holder.base = `http://127.0.0.1:${await listen(server)}`;
    servers.push(server);
    bases.push(holder.base);
  }
  const [main = '', alt = ''] = bases;
  return {
    baseUrl: main,
    altBaseUrl: alt,
    tenant: RELEASED[0] ?? '',
    otherTenant: RELEASED[1],
    foreignTenant: UNRELEASED,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${main}${TOKEN_PATH}`,
    store,
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
