// Request dispatch of birch: normalise the path (trailing slash tolerated), Service-Version, route
// match, authentication, tenant, rate limit, scope, handler; every failure becomes the failure envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BirchState } from './app-state.ts';
import { requireScope, TOKEN_PATH } from './auth.ts';
import {
  type Ctx,
  CURRENT_VERSION,
  HttpError,
  invalid,
  newRequestId,
  notFound,
  SUPPORTED_VERSIONS,
  sendError,
  sendOk,
} from './http-util.ts';
import type { Auth, Route } from './routes.ts';

const TENANT_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

function match(routes: Route[], path: string): { route: Route; params: Record<string, string> }[] {
  const found: { route: Route; params: Record<string, string> }[] = [];
  for (const route of routes) {
    const names: string[] = [];
    const re = new RegExp(
      `^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(path);
    if (m)
      found.push({ route, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')])) });
  }
  return found;
}

export function createHandler(s: BirchState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://birch.invalid');
    const host = String(req.headers.host ?? '127.0.0.1');
    const ctx: Ctx = {
      req,
      res,
      requestId: newRequestId(),
      version: CURRENT_VERSION,
      method: req.method ?? 'GET',
      path: url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname,
      query: url.searchParams,
      origin: `http://${host}`,
      headOnly: req.method === 'HEAD',
      extraHeaders: {},
    };
    dispatch(ctx, s).catch((err: unknown) => {
      if (err instanceof HttpError) return sendError(ctx, err);
      // no internals in the answer; the request id is what support needs
      console.error(`[birch] ${ctx.requestId}`, err);
      sendError(
        ctx,
        new HttpError(500, 'internal', 'A fault occurred on the service side.', {
          hint: `Quote request id ${ctx.requestId} to support.`,
        }),
      );
    });
  };
}

async function dispatch(ctx: Ctx, s: BirchState): Promise<void> {
  if (ctx.path === TOKEN_PATH) return s.auth.handleToken(ctx.req, ctx.res);
  const sv = ctx.req.headers['service-version'];
  const asked = Array.isArray(sv) ? sv[0] : sv;
  if (asked !== undefined && asked !== '') {
    if (!SUPPORTED_VERSIONS.includes(asked.trim())) {
      throw new HttpError(400, 'invalid_request', 'Unknown Service-Version.', {
        detail: `supported: ${SUPPORTED_VERSIONS.join(', ')}`,
        hint: `Send Service-Version: ${CURRENT_VERSION} or omit it.`,
      });
    }
    ctx.version = asked.trim();
  } else if (s.variant.serviceVersionRequired && ctx.path.startsWith('/api/public/v1')) {
    throw new HttpError(400, 'invalid_request', 'The header Service-Version is required.', {
      hint: `Send Service-Version: ${CURRENT_VERSION}.`,
    });
  }
  const candidates = match(s.routes, ctx.path);
  if (candidates.length === 0) throw notFound('No route matches this path.');
  const allow = [...new Set(candidates.flatMap((c) => (c.route.method === 'GET' ? ['GET', 'HEAD'] : [c.route.method])))]
    .concat('OPTIONS')
    .join(', ');
  if (ctx.method === 'OPTIONS') return sendOk(ctx, { allow: allow.split(', ') }, {}, { allow });
  const wanted = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  const hit = candidates.find((c) => c.route.method === wanted);
  if (!hit)
    throw new HttpError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}.`, {
      detail: `allowed methods: ${allow}`,
      headers: { allow },
    });
  const { route, params } = hit;
  let auth: Auth | null = null;
  if (route.auth) auth = authorize(ctx, s, route);
  await route.handle(ctx, s, auth, params);
}

function authorize(ctx: Ctx, s: BirchState, route: Route): Auth {
  let token: ReturnType<typeof s.auth.authenticate>;
  try {
    token = s.auth.authenticate(ctx.req);
  } catch (err) {
    // unauthenticated calls are throttled per address (rack-attack style) and report that budget
    ctx.extraHeaders = s.limiter.hit(`ip|${ctx.req.socket.remoteAddress ?? ''}`);
    throw err;
  }
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  ctx.extraHeaders = s.limiter.hit(`${token.clientId}|${tenant || '-'}|sandbox`);
  if (tenant === '') {
    if (s.variant.missingTenantStatus === 403)
      throw new HttpError(403, 'forbidden', 'No tenant is released for this call.', { hint: 'Send x-service-tenant.' });
    throw invalid('The header x-service-tenant is required.', 'x-service-tenant: tenant identifier');
  }
  if (!TENANT_PATTERN.test(tenant) || !s.tenants.includes(tenant)) {
    throw new HttpError(403, 'forbidden', 'The tenant is not released for this access.', {
      hint: 'Check the tenant identifier and the permissions of the access.',
    });
  }
  if (!token.tenants.includes(tenant))
    throw new HttpError(403, 'forbidden', 'The tenant is not released for this access.', {
      hint: 'Check the permissions of the access.',
    });
  if (route.scope) requireScope(token, route.scope);
  return { tenant, clientId: token.clientId, scopes: token.scopes };
}
