// sweetgum: an independent deployment of the interface, written from interface.md alone in the style of a
// Dart team (shelf + shelf_router, json_serializable, package:crypto, UUID ids, microsecond UTC times).
// Two loopback listeners share one store: the main and the alternate base URL.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type Handler, handlers } from './app.ts';
import { newAuditLog } from './audit.ts';
import { authenticate, CLIENT_ID, newAuth, TENANTS, throttle, tokenEndpoint } from './auth.ts';
import { ApiError, fail, newCtx, readBody } from './http.ts';
import { ROUTES } from './routes.ts';
import { newStore, roundTrip, type SweetgumOptions, VERSIONS } from './state.ts';
import { closeAll, newStreams } from './stream.ts';
import { newHooks } from './webhooks.ts';

export type { SweetgumOptions } from './state.ts';

const P = '/api/public/v1';

const compiled = ROUTES.map((rt) => ({
  ...rt,
  re: new RegExp(`^${P}${rt.path.replace(/\./g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}/?$`),
}));

async function handle(app: App, table: Record<string, Handler>, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const ctx = newCtx(req, res, url);
  try {
    const text = req.method === 'GET' || req.method === 'HEAD' ? '' : await readBody(req);
    if (req.method === 'POST' && url.pathname === '/oauth2/token') return tokenEndpoint(app.store, app.auth, ctx, text);
    const requested = req.headers['service-version'];
    if (app.store.options.versionRequired && !requested) {
      throw new ApiError(400, 'invalid_request', 'Header Service-Version is required', `one of ${VERSIONS.join(', ')}`);
    }
    if (typeof requested === 'string' && requested !== '') {
      if (!VERSIONS.includes(requested)) {
        throw new ApiError(
          400,
          'invalid_request',
          `Unsupported Service-Version ${requested}`,
          `one of ${VERSIONS.join(', ')}`,
        );
      }
      ctx.version = requested;
    }
    const route = compiled.find((rt) => rt.method === req.method && rt.re.test(url.pathname));
    const handler =
      route && (!route.since || route.since <= ctx.version) ? table[`${route.method} ${route.path}`] : undefined;
    if (!route || !handler) throw new ApiError(404, 'not_found', 'Route not found');
    if (route.auth) {
      authenticate(app.auth, ctx);
      throttle(app.store, app.auth, ctx);
      await roundTrip(app.store);
    }
    await handler(ctx, (route.re.exec(url.pathname) ?? []).slice(1).map(decodeURIComponent), text);
  } catch (err) {
    if (res.headersSent) res.end();
    else fail(ctx, err);
  }
}

export interface Sweetgum {
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

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

export async function startSweetgum(options: SweetgumOptions = {}): Promise<Sweetgum> {
  const app: App = {
    store: newStore(options),
    auth: newAuth(),
    idem: new Map(),
    audit: newAuditLog(),
    streams: newStreams(),
    hooks: newHooks(),
    tokenUrl: '',
  };
  const table = handlers(app);
  const servers = [0, 1].map(() => createServer((req, res) => void handle(app, table, req, res)));
  const [main, alt] = servers as [Server, Server];
  const [port, altPort] = [await listen(main), await listen(alt)];
  const baseUrl = `http://127.0.0.1:${port}`;
  app.tokenUrl = `${baseUrl}/oauth2/token`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT_ID,
    clientSecret: app.auth.secret,
    tokenUrl: app.tokenUrl,
    async close() {
      for (const t of app.hooks.timers) clearTimeout(t);
      closeAll(app.streams);
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
