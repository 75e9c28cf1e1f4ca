// The request cycle: token route, then Service-Version, route match, the authenticated `under` (token,
// tenant, rate limit) and the action. Errors thrown anywhere render once as the failure envelope;
// anything unexpected is a 500 `internal` that shows only the request id (no internals, as the contract asks).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, fail, ok, readBody, requestId } from './http.ts';
import { countCall } from './rate-limit.ts';
import { ROUTES, type RouteDef } from './routes.ts';
import { PREFIX, type Store, VERSION, VERSIONS } from './state.ts';

function match(method: string, path: string): { route: RouteDef; params: Record<string, string> } | undefined {
  let pathOnly = false;
  for (const route of ROUTES) {
    const names: string[] = [];
    const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const m = new RegExp(`^${source}$`).exec(path);
    if (!m) continue;
    if (route.method !== method) {
      pathOnly = true;
      continue;
    }
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params };
  }
  // Mojolicious answers an unmatched method like an unmatched path: 404 (the contract lists no 405).
  if (pathOnly) throw new ApiError('not_found', `No ${method} route for ${path}.`);
  return undefined;
}

export async function handle(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === TOKEN_PATH) return tokenEndpoint(store, req, res);
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    requestId: requestId(),
    version: VERSION,
    rawBody: '',
    params: {},
  };
  try {
    ctx.rawBody = await readBody(req);
    const asked = req.headers['service-version'];
    const version = (Array.isArray(asked) ? asked[0] : asked)?.trim();
    if (!version && store.options.versionRequired && ctx.path !== PREFIX && !ctx.path.startsWith(`${PREFIX}/openapi`)) {
      // The discovery documents stay readable without it, so a client can learn which versions exist.
      throw new ApiError(
        'invalid_request',
        'Header Service-Version is required.',
        '/header/Service-Version: Missing property.',
      );
    }
    if (version) {
      // Optional header; an unknown value is refused rather than silently answered as another version.
      if (!VERSIONS.includes(version)) {
        throw new ApiError(
          'invalid_request',
          'Unknown Service-Version.',
          `/header/Service-Version: Not in enum list: ${VERSIONS.join(', ')}.`,
        );
      }
      ctx.version = version;
    }
    const found = match(ctx.method, ctx.path);
    if (!found) throw new ApiError('not_found', `No route for ${ctx.path}.`);
    ctx.params = found.params;
    if (found.route.auth) {
      authenticate(store, ctx);
      countCall(store, ctx);
    }
    const data = found.route.run(store, ctx);
    if (data) ok(ctx, data);
  } catch (err) {
    if (err instanceof ApiError) return fail(ctx, err);
    // Logged server-side with the request id; the answer carries the id alone.
    console.error(`[guava ${ctx.requestId}]`, err);
    fail(ctx, new ApiError('internal', 'Internal error; quote the request id to support.'));
  }
}
