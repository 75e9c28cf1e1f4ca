// Two loopback listeners over one store, the router (exact paths: a trailing slash is another path, as
// in Servant) and the error boundary that reshapes every failure into the contract's envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, createApp } from './app.ts';
import { TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, fail, newContext, sendError, VERSIONS } from './http.ts';
import { ROUTES, type Route } from './routes.ts';
import { CLIENT, type PersimmonOptions, TENANTS } from './state.ts';

export type { PersimmonOptions } from './state.ts';

function match(route: Route, path: string): Record<string, string> | undefined {
  const want = route.path.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    // `{version}.json`: a parameter followed by a fixed suffix inside one segment.
    const p = /^\{(\w+)\}(.*)$/.exec(w);
    if (p?.[1] !== undefined) {
      const suffix = p[2] ?? '';
      if (!g.endsWith(suffix) || g.length <= suffix.length) return undefined;
      params[p[1]] = decodeURIComponent(g.slice(0, g.length - suffix.length));
    } else if (w !== g) return undefined;
  }
  return params;
}

/** Service-Version: absent means current; a published version is served as that version; others are 400. */
function negotiateVersion(ctx: Ctx): void {
  const raw = ctx.req.headers['service-version'];
  const asked = Array.isArray(raw) ? raw[0] : raw;
  if (asked === undefined || asked === '') return;
  if (!(VERSIONS as readonly string[]).includes(asked.trim())) {
    throw new ApiError(400, 'invalid_request', `unknown Service-Version ${asked}`, `use one of ${VERSIONS.join(', ')}`);
  }
  ctx.version = asked.trim();
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === TOKEN_PATH) return tokenEndpoint(req, res, app.tokens);
  const ctx = newContext(req, res, url);
  try {
    negotiateVersion(ctx);
    const candidates = ROUTES.filter((r) => r.since === undefined || ctx.version >= r.since)
      .map((r) => ({ r, params: match(r, url.pathname) }))
      .filter((c) => c.params !== undefined);
    const hit = candidates.find((c) => c.r.method === req.method);
    if (!hit) {
      // Servant would say 405 here; the contract's table has no such code, so an unknown method is not_found.
      if (candidates.length > 0) ctx.headers.allow = candidates.map((c) => c.r.method).join(', ');
      throw fail.notFound(`no route for ${req.method} ${url.pathname}`);
    }
    await hit.r.handle(app, ctx, hit.params ?? {});
  } catch (e) {
    if (res.headersSent) return void res.end();
    if (e instanceof ApiError) return sendError(ctx, e);
    // No internal detail leaves the service: the request id is what support needs.
    sendError(ctx, new ApiError(500, 'internal', 'internal error', `quote request ${ctx.requestId}`));
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/**
 * Starts persimmon on two loopback ports sharing one store.
 * @example const p = await startPersimmon({ bucketSize: 300 }); await p.close();
 */
export async function startPersimmon(options: PersimmonOptions = {}) {
  const app = createApp(options);
  const servers = [0, 1].map(() => createServer((req, res) => void handle(app, req, res)));
  const [main, alt] = await Promise.all(servers.map(listen));
  const baseUrl = main ?? '';
  return {
    baseUrl,
    altBaseUrl: alt ?? '',
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      app.stream.closeAll();
      app.deliverer.stop();
      await Promise.all(
        servers.map(
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
