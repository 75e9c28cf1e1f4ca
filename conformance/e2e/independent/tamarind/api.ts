// The request pipeline, in the order of the Flask app's before_request hooks and Connexion's security
// handler: realm paths, route lookup, Service-Version, bearer and tenant check, Flask-Limiter, the view.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorize } from './auth.ts';
import { type App, answer, VIEWS } from './handlers.ts';
import { ApiError, type Ctx, newCtx, sendError } from './http.ts';
import { QUERY } from './openapi.ts';
import type { Limiter } from './rate-limit.ts';
import { limiterKey } from './rate-limit.ts';
import { match, ROUTES } from './routes.ts';
import { BASE, VERSIONS } from './state.ts';
import { handleRealm } from './token.ts';

function route(ctx: Ctx) {
  const path = ctx.url.pathname;
  if (path !== BASE && !path.startsWith(`${BASE}/`)) return undefined;
  const rel = path.length <= BASE.length + 1 ? '/' : path.slice(BASE.length);
  for (const r of ROUTES) {
    const params = match(r, ctx.req.method ?? 'GET', rel);
    if (params) return { route: r, params };
  }
  return undefined;
}

function serviceVersion(ctx: Ctx, required: boolean): void {
  const raw = ctx.req.headers['service-version'];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined || v === '') {
    if (!required) return;
    throw new ApiError('invalid_request', 'Missing Service-Version', "Header 'Service-Version' is required.");
  }
  // Connexion validates the header against its enum: an unknown version is a 400, never silently the latest.
  if (!(VERSIONS as readonly string[]).includes(v.trim())) {
    throw new ApiError(
      'invalid_request',
      'Unsupported Service-Version',
      `'${v.slice(0, 40)}' is not one of ${JSON.stringify(VERSIONS)}`,
      'Send Service-Version: 2026-07-01 or omit it.',
    );
  }
  ctx.version = v.trim();
}

/** Connexion's strict_validation: only the query parameters the document declares are accepted. */
function strictQuery(ctx: Ctx, operationId: string): void {
  const known = QUERY[operationId] ?? [];
  for (const name of ctx.url.searchParams.keys()) {
    if (!known.includes(name)) {
      throw new ApiError('invalid_request', 'Unknown query parameter', `Extra query parameter(s) ${name} not in spec`);
    }
  }
}

async function pipeline(app: App, limiter: Limiter, ctx: Ctx): Promise<void> {
  const found = route(ctx);
  if (!found) {
    limiter.hit(ctx, limiterKey(ctx, undefined));
    throw new ApiError('not_found', 'The requested URL was not found on the server', undefined, 'Check the path.');
  }
  let refused: unknown;
  const wantsAuth = found.route.auth || (found.route.operationId === 'stream' && ctx.req.headers.authorization);
  try {
    serviceVersion(ctx, app.store.options.serviceVersionRequired);
    if (app.store.options.strictValidation) strictQuery(ctx, found.route.operationId);
    if (wantsAuth) authorize(app.realm, ctx);
  } catch (e) {
    refused = e;
  }
  limiter.hit(ctx, limiterKey(ctx, ctx.clientId));
  if (refused) throw refused;
  const version = found.params.version;
  if (version !== undefined && !(VERSIONS as readonly string[]).includes(version)) {
    throw new ApiError('not_found', 'No document for this version', `Versions: ${VERSIONS.join(', ')}`);
  }
  const view = VIEWS[found.route.operationId];
  if (!view) throw new ApiError('internal', 'Internal server error');
  const data = await view(app, ctx, found.params);
  if (data !== undefined) answer(ctx, data);
}

/** The node:http handler of both listeners. */
export function handler(app: App, limiter: Limiter) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const ctx = newCtx(req, res);
    try {
      if (await handleRealm(app.realm, req, res, ctx.url.pathname, app.origin)) return;
      await pipeline(app, limiter, ctx);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Unexpected exceptions become `internal` without internals: the request id is all support needs.
      const err = e instanceof ApiError ? e : new ApiError('internal', 'Internal server error');
      sendError(ctx, err);
    }
  };
}
