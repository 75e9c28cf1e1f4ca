// The tower stack in front of every route, in layer order: request id, Service-Version, route match,
// bearer token, tenant, rate limit (rate-limit.ts), Idempotency-Key.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { takeQuota } from './rate-limit.ts';
import type { State } from './state.ts';
import { KEY_PATTERN } from './validate.ts';
import { ApiError, type Call, CURRENT_VERSION, fail, invalid, requestId, VERSIONS } from './wire.ts';

export interface Ctx {
  state: State;
  tenant: string;
  clientId: string;
  key: string | undefined;
  params: Record<string, string>;
  base: string;
}
export interface Route {
  method: string;
  path: string;
  auth: boolean;
  key?: boolean;
  purpose: string;
  query?: { name: string }[];
  run: (call: Call, ctx: Ctx) => Promise<void> | void;
}

/** The deployment's own environment: the rate-limit key's third part. */
const ENVIRONMENT = 'sandbox';

function match(template: string, path: string): Record<string, string> | undefined {
  const a = template.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    const t = a[i] ?? '';
    const p = b[i] ?? '';
    if (t.startsWith('{')) {
      if (p === '') return undefined;
      params[t.slice(1, -1)] = decodeURIComponent(p);
    } else if (t !== p) return undefined;
  }
  return params;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function handle(
  state: State,
  routes: Route[],
  req: IncomingMessage,
  res: ServerResponse,
  base: string,
): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  const call: Call = { req, res, url, requestId: requestId(), version: CURRENT_VERSION, headers: {} };
  try {
    const asked = header(req, 'service-version');
    if (asked !== undefined) {
      if (!(VERSIONS as readonly string[]).includes(asked)) {
        throw invalid(`Unknown Service-Version \`${asked}\`; published versions: ${VERSIONS.join(', ')}.`);
      }
      call.version = asked;
    } else if (state.options.serviceVersionRequired) {
      throw invalid(`The header Service-Version is required (current: ${CURRENT_VERSION}).`);
    }
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    let route: Route | undefined;
    let params: Record<string, string> = {};
    let pathKnown = false;
    for (const r of routes) {
      const p = match(r.path, path);
      if (!p) continue;
      pathKnown = true;
      if (r.method === req.method || (r.method === 'GET' && req.method === 'HEAD')) {
        route = r;
        params = p;
        break;
      }
    }
    if (!route) {
      throw new ApiError(
        404,
        'not_found',
        'The entry does not exist.',
        pathKnown ? `Method ${req.method} is not offered on this path.` : `No route ${path}.`,
      );
    }
    const ctx: Ctx = { state, tenant: '', clientId: '', key: undefined, params, base };
    if (route.auth) await authenticate(state, call, ctx, route);
    if (state.options.strictQuery) {
      const known = (route.query ?? []).map((q) => q.name);
      for (const name of call.url.searchParams.keys()) {
        if (!known.includes(name))
          throw invalid(
            `unknown query parameter \`${name}\`${known.length ? `, expected one of ${known.join(', ')}` : ''}`,
          );
      }
    }
    if (state.options.requireJsonContentType && req.method === 'POST' && route.path.endsWith('resend') === false) {
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (type !== 'application/json' && !type.endsWith('+json'))
        throw invalid('Expected request with `Content-Type: application/json`.');
    }
    await route.run(call, ctx);
  } catch (e) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (e instanceof ApiError) return fail(call, e);
    // Never a stack trace or an internal detail: the request id is all support needs.
    fail(
      call,
      new ApiError(
        500,
        'internal',
        'A fault on the service side.',
        undefined,
        `Quote the request id ${call.requestId} to support.`,
      ),
    );
  }
}

async function authenticate(state: State, call: Call, ctx: Ctx, route: Route): Promise<void> {
  const auth = header(call.req, 'authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  const token = m?.[1] ? state.tokens.get(m[1]) : undefined;
  if (!token || token.expiresAt <= Date.now()) {
    // Counted per peer address, as tower-governor's PeerIpKeyExtractor does before authentication.
    if (!takeQuota(state, call, `ip:${call.req.socket.remoteAddress}`)) throw rateLimited();
    throw new ApiError(
      401,
      'unauthorized',
      'The call was not signed in.',
      token ? 'The access token has expired.' : 'A valid bearer token is required.',
      'Request a new access token and check the environment.',
    );
  }
  ctx.clientId = token.clientId;
  const tenant = header(call.req, 'x-service-tenant');
  const allowed = takeQuota(state, call, `${token.clientId}|${tenant ?? '-'}|${ENVIRONMENT}`);
  if (!allowed) throw rateLimited();
  if (tenant === undefined || tenant === '') throw invalid('The header x-service-tenant is required.');
  const client = state.clients.get(token.clientId);
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError(
      403,
      'forbidden',
      'This access may not perform the action.',
      'The tenant is not released for this access.',
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
  if (route.key) {
    const key = header(call.req, 'idempotency-key');
    if (key === undefined) {
      throw new ApiError(
        428,
        'idempotency_required',
        'An idempotency key is mandatory for this call.',
        'The header Idempotency-Key is missing.',
        'Send the header Idempotency-Key.',
      );
    }
    if (!KEY_PATTERN.test(key)) throw invalid('Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.');
    ctx.key = key;
  }
}

function rateLimited(): ApiError {
  return new ApiError(
    429,
    'rate_limited',
    'Too many calls in a short time.',
    undefined,
    'Wait for Retry-After seconds, then retry with growing intervals.',
  );
}
