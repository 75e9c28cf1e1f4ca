// sycamore: an independent deployment of interface.md (a PHP/Laravel-minded team porting to Node). Two loopback
// ports share one state (main and alternate base address); routes are a table like Laravel's routes/api.php.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, applyServiceVersion, type Ctx, fail, newCtx } from './http.ts';
import { authenticate, metadata, tokenEndpoint } from './oauth.ts';
import { MATCHERS } from './routes.ts';
import { createState, type Options, type State } from './state.ts';
import { secret } from './util.ts';

/** Query parameters each GET takes; with strictQuery any other one is refused (a FormRequest without extras). */
const QUERY: Record<string, string[]> = {
  '/api/public/v1/providers': ['category'],
  '/api/public/v1/connectors': ['capability', 'providerId', 'category'],
  '/api/public/v1/stream': ['cursor'],
  '/api/public/v1/audit-log': ['limit', 'page', 'per_page'],
};

function strictQuery(ctx: Ctx, path: string): void {
  const allowed = QUERY[path] ?? [];
  for (const name of ctx.url.searchParams.keys()) {
    if (!allowed.includes(name)) {
      const hint = allowed.length ? `Allowed: ${allowed.join(', ')}.` : 'This endpoint takes no query parameters.';
      throw new ApiError('invalid_request', `${name}: is not a parameter of this endpoint`, hint);
    }
  }
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const ctx = newCtx(req, res, base);
  try {
    const path = ctx.url.pathname;
    if (path === '/oauth/token' && req.method === 'POST') return await tokenEndpoint(state, req, res);
    if (path === '/.well-known/oauth-authorization-server') return metadata(base, res);
    const found = MATCHERS.map((m) => ({ m, hit: m.re.exec(path) })).filter((x) => x.hit !== null);
    const match = found.find((x) => x.m.route.method === req.method);
    if (!match?.hit) {
      const detail = found.length ? `${req.method} is not allowed on ${path}` : `no route ${path}`;
      throw new ApiError('not_found', detail, 'GET /api/public/v1 lists the routes.');
    }
    applyServiceVersion(ctx);
    if (match.m.route.auth) authenticate(state, ctx);
    if (state.opts.strictQuery) strictQuery(ctx, match.m.route.path);
    await match.m.route.handler(state, ctx, match.hit.slice(1));
  } catch (e) {
    if (res.headersSent) return void res.end();
    fail(
      ctx,
      e instanceof ApiError ? e : new ApiError('internal', undefined, `Quote request ${ctx.requestId} to support.`),
    );
  }
}

export interface Sycamore {
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
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Starts sycamore on two loopback ports sharing one state. */
export async function startSycamore(options: Options = {}): Promise<Sycamore> {
  const clientId = 'sycamore-ci-client';
  const clientSecret = secret('syc_cs_', 24);
  const tenants = ['sycamore-amsterdam', 'sycamore-rotterdam'];
  const state = createState(options, clientId, clientSecret, tenants, 'sycamore-utrecht');
  const servers: Server[] = [];
  const bases: string[] = [];
  for (let i = 0; i < 2; i++) {
    let base = '';
    const server = createServer((req, res) => void handle(state, req, res, base));
    server.keepAliveTimeout = 5000;
    base = `http://127.0.0.1:${await listen(server)}`;
    servers.push(server);
    bases.push(base);
  }
  const [baseUrl = '', altBaseUrl = ''] = bases;
  return {
    baseUrl,
    altBaseUrl,
    tenant: tenants[0] ?? '',
    otherTenant: tenants[1] ?? '',
    foreignTenant: 'sycamore-utrecht',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}/oauth/token`,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      for (const l of state.listeners) l.end();
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
