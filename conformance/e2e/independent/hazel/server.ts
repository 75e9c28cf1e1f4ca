// hazel: an independent deployment of the interface (Java/Spring-style service behind a Kong-like
// gateway), on loopback: main and alternate base address over one state, plus the token server.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyVersion, gate, handleTokenServer, TOKEN_PATH } from './auth.ts';
import type { Ctx } from './http-kit.ts';
import { API, ApiError, fail, newCtx, sendJson } from './http-kit.ts';
import { sweepKeys } from './idempotency.ts';
import { setZoneOffset } from './ids.ts';
import { openApiDocument } from './openapi.ts';
import type { Route } from './routes.ts';
import { ROUTES } from './routes.ts';
import type { HazelOptions, State } from './store.ts';
import { createState } from './store.ts';
import { closeStreams, keepAlive } from './stream.ts';

export type Hazel = {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  state: State;
  close(): Promise<void>;
};

const COMPILED = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${API}${r.path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

function match(path: string): { routes: { route: Route; params: Record<string, string> }[] } {
  const routes = [];
  for (const c of COMPILED) {
    const m = c.re.exec(path);
    if (m) routes.push({ route: c.route, params: { ...(m.groups ?? {}) } });
  }
  return { routes };
}

/** The served OpenAPI files: the document, and downloadable JSON/YAML per version (JSON is YAML 1.2). */
function openApiFile(state: State, ctx: Ctx): boolean {
  const m = /^\/api\/public\/v1\/(?:openapi\.json|openapi\/(2026-07-01|2026-06-12)\.(json|yaml))$/.exec(
    ctx.url.pathname,
  );
  if (!m || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
  applyVersion(state, ctx, false);
  const doc = openApiDocument(state, m[1] ?? ctx.version);
  const type = m[2] === 'yaml' ? 'application/yaml' : 'application/json; charset=utf-8';
  sendJson(
    ctx,
    200,
    doc,
    m[2] ? { 'Content-Type': type, 'Content-Disposition': `attachment; filename="openapi-${m[1]}.${m[2]}"` } : {},
  );
  return true;
}

async function handle(state: State, ctx: Ctx): Promise<void> {
  const path = ctx.url.pathname;
  if (path.length > 1 && path.endsWith('/')) {
    ctx.res.writeHead(308, {
      Location: path.replace(/\/+$/, '') + ctx.url.search,
      'Cache-Control': 'no-store',
      'X-Request-Id': ctx.requestId,
      'X-Kong-Request-Id': ctx.gatewayId,
    });
    ctx.res.end();
    return;
  }
  if (openApiFile(state, ctx)) return;
  const { routes } = match(path);
  const allow = [...new Set(routes.flatMap((r) => (r.route.method === 'GET' ? ['GET', 'HEAD'] : [r.route.method])))];
  if (ctx.method === 'OPTIONS' && routes.length > 0) {
    ctx.res.writeHead(204, {
      Allow: [...allow, 'OPTIONS'].join(', '),
      'Cache-Control': 'no-store',
      'X-Request-Id': ctx.requestId,
      'X-Kong-Request-Id': ctx.gatewayId,
    });
    ctx.res.end();
    return;
  }
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  const hit = routes.find((r) => r.route.method === method);
  if (!hit) {
    throw new ApiError('not_found', 'No such endpoint.', {
      hint: routes.length > 0 ? `This path answers ${allow.join(', ')}.` : 'See GET /api/public/v1 for the routes.',
      headers: routes.length > 0 ? { Allow: [...allow, 'OPTIONS'].join(', ') } : {},
    });
  }
  if (hit.route.auth) gate(state, ctx);
  else applyVersion(state, ctx, false);
  await hit.route.handle(state, ctx, hit.params);
}

function listener(state: State, base: 'main' | 'alt') {
  return (req: IncomingMessage, res: ServerResponse) => {
    const ctx = newCtx(req, res, base);
    handle(state, ctx).catch((err: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (err instanceof ApiError) fail(ctx, err);
      else
        fail(
          ctx,
          new ApiError('internal', 'The service could not complete the call.', {
            hint: `Quote the request id ${ctx.requestId} to support.`,
          }),
        );
    });
  };
}

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export type StartOptions = HazelOptions & { port?: number; altPort?: number; authPort?: number };

export async function startHazel(options: StartOptions = {}): Promise<Hazel> {
  const [tenant, otherTenant, foreignTenant] = ['hazel-harbor', 'hazel-meadow', 'hazel-quarry'];
  const tenants = { released: [tenant, otherTenant], foreign: [foreignTenant] };
  const state = createState(options, tenants);
  // one offset per process: the test starts variants one after another
  setZoneOffset(state.options.zoneOffsetMinutes);
  const auth = createServer((req, res) => {
    handleTokenServer(state, state.authOrigin, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  state.authOrigin = await listen(auth, options.authPort);
  const main = createServer(listener(state, 'main'));
  const alt = createServer(listener(state, 'alt'));
  const servers = [auth, main, alt];
  for (const s of servers) s.keepAliveTimeout = 5000;
  const baseUrl = await listen(main, options.port);
  const altBaseUrl = await listen(alt, options.altPort);
  const ticker = setInterval(() => keepAlive(state), 10_000);
  const sweeper = setInterval(() => sweepKeys(state), 60_000);
  return {
    baseUrl,
    altBaseUrl,
    tenant,
    otherTenant,
    foreignTenant,
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `${state.authOrigin}${TOKEN_PATH}`,
    state,
    async close() {
      clearInterval(ticker);
      clearInterval(sweeper);
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      closeStreams(state);
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
