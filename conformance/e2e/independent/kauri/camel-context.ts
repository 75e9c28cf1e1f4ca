// The CamelContext: the REST DSL (`rest().get(path).to("direct:...")`), the shared state every route reads,
// and the dispatcher: version negotiation, bearer/tenant check, the rate limiter, the Idempotent Consumer and
// the `onException` clause mapping every exception to the failure envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditLog } from './audit.ts';
import {
  CamelRouteException,
  CURRENT_VERSION,
  canonical,
  type Exchange,
  exchangeId,
  meta,
  send,
  sendError,
  VERSIONS,
} from './exchange.ts';
import { JdbcIdempotentRepository, KEY_PATTERN } from './idempotent-repository.ts';
import type { KafkaTopic } from './kafka.ts';
import { type KeycloakRealm, REALM_PATH } from './keycloak.ts';
import type { RateLimiterRegistry } from './resilience.ts';
import type { WebhookRoutes } from './webhooks.ts';

export const BASE = '/api/public/v1';

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export interface CamelContext {
  realm: KeycloakRealm;
  limiter: RateLimiterRegistry;
  repo: JdbcIdempotentRepository;
  kafka: KafkaTopic;
  webhooks: WebhookRoutes;
  audit: AuditLog;
  connections: Connection[];
  environment: string;
  unknownVersion: 'reject' | 'current';
  transitionMs: number;
  timers: Set<NodeJS.Timeout>;
}

export interface RestRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
  direct: string;
  /** Returns `data` of the success envelope, or undefined when the route wrote the answer itself. */
  process: (ex: Exchange, ctx: CamelContext) => unknown;
}

/** The REST DSL: `rest().get('/providers', 'list providers').to('direct:listProviders', processor)`. */
export function rest() {
  const routes: RestRoute[] = [];
  const verb =
    (method: RestRoute['method']) =>
    (path: string, purpose: string, opts: { auth?: boolean; key?: RestRoute['key'] } = {}) => ({
      to(direct: string, process: RestRoute['process']) {
        routes.push({
          method,
          path: `${BASE}${path}`,
          purpose,
          auth: opts.auth ?? true,
          key: opts.key ?? 'none',
          direct,
          process,
        });
        return builder;
      },
    });
  const builder = { get: verb('GET'), post: verb('POST'), delete: verb('DELETE'), routes };
  return builder;
}

function match(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] as string;
    const val = p[i] as string;
    if (seg.startsWith('{')) {
      if (!val) return undefined;
      params[seg.slice(1, -1)] = decodeURIComponent(val);
    } else if (seg !== val) return undefined;
  }
  return params;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) reject(new CamelRouteException('invalid_request', 'Request body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function dispatch(
  ctx: CamelContext,
  routes: RestRoute[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://kauri.local');
  const id = exchangeId();
  const crumb = req.headers.breadcrumbid;
  const ex: Exchange = {
    id,
    breadcrumbId: typeof crumb === 'string' && /^[\w.:-]{1,128}$/.test(crumb) ? crumb : id,
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname,
    query: url.searchParams,
    params: {},
    version: CURRENT_VERSION,
    body: undefined,
    headers: {},
  };
  try {
    const raw = await readBody(req);
    if (ex.path === `${REALM_PATH}/token`) return ctx.realm.token(req, res, raw);
    if (ex.path === `${REALM_PATH}/certs`) return send(ex, 200, ctx.realm.jwks());
    const asked = req.headers['service-version'];
    if (typeof asked === 'string' && asked.trim() !== '') {
      if ((VERSIONS as readonly string[]).includes(asked.trim())) ex.version = asked.trim();
      else if (ctx.unknownVersion === 'reject')
        throw new CamelRouteException(
          'invalid_request',
          'Unknown Service-Version',
          `supported: ${VERSIONS.join(', ')}`,
        );
    }
    let route: RestRoute | undefined;
    for (const r of routes) {
      const params = r.method === ex.method ? match(r.path, ex.path) : undefined;
      if (params) {
        route = r;
        ex.params = params;
        break;
      }
    }
    if (!route)
      throw new CamelRouteException('not_found', 'No route for this method and path', `${ex.method} ${ex.path}`);
    if (route.auth) authenticate(ctx, ex);
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string' && key !== '') {
      if (!KEY_PATTERN.test(key))
        throw new CamelRouteException(
          'invalid_request',
          'Idempotency-Key does not match the pattern',
          '^[A-Za-z0-9._:-]{8,128}$',
        );
      if (route.key !== 'none') ex.idempotencyKey = key;
    } else if (route.key === 'required') {
      throw new CamelRouteException(
        'idempotency_required',
        'An Idempotency-Key header is required for this call',
        undefined,
        'POST /api/public/v1/idempotency-keys issues one',
      );
    }
    if (ex.method === 'POST') {
      if (raw.trim() === '') ex.body = {};
      else {
        try {
          ex.body = JSON.parse(raw);
        } catch {
          throw new CamelRouteException('invalid_request', 'The request body is not valid JSON');
        }
      }
    }
    if (ex.idempotencyKey) {
      const processor = `${ex.clientId}|${ex.tenant}`;
      const fp = JdbcIdempotentRepository.fingerprint(ex.method, ex.path, canonical(ex.body));
      const found = ctx.repo.lookup(processor, ex.idempotencyKey, fp);
      if (found.kind === 'conflict')
        throw new CamelRouteException(
          'idempotency_conflict',
          'This Idempotency-Key was used with different content',
          undefined,
          'use a new key for each new operation',
        );
      if (found.kind === 'replay') {
        return send(ex, 200, {
          ok: true,
          data: found.reply,
          meta: meta(ex, { idempotencyKey: ex.idempotencyKey, replayed: true }),
        });
      }
      const data = route.process(ex, ctx);
      ctx.repo.confirm(processor, ex.idempotencyKey, fp, replayView(data));
      return send(ex, 200, { ok: true, data, meta: meta(ex, { idempotencyKey: ex.idempotencyKey, replayed: false }) });
    }
    const data = route.process(ex, ctx);
    if (data !== undefined) send(ex, 200, { ok: true, data, meta: meta(ex) });
  } catch (e) {
    // onException(Exception.class).handled(true).process(envelope)
    if (e instanceof CamelRouteException) sendError(ex, e);
    else sendError(ex, new CamelRouteException('internal', 'The route failed; quote the requestId to support'));
  }
}

/** The signing key is issued exactly once: a replayed registration never shows it again. */
function replayView(data: unknown): unknown {
  if (data && typeof data === 'object' && 'signingKey' in data) {
    return { ...(data as object), signingKey: null, signingKeyIssued: 'ALREADY_ISSUED' };
  }
  return data;
}

function authenticate(ctx: CamelContext, ex: Exchange): void {
  const who = ctx.realm.verify(ex.req.headers.authorization);
  if (!who)
    throw new CamelRouteException(
      'unauthorized',
      'A valid bearer token is required',
      undefined,
      'request a new access token',
    );
  ex.clientId = who.clientId;
  const tenant = ex.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '')
    throw new CamelRouteException('invalid_request', 'Header x-service-tenant is required');
  if (!who.tenants.includes(tenant))
    throw new CamelRouteException('forbidden', 'This access is not released for the tenant');
  ex.tenant = tenant;
  const permit = ctx.limiter.acquire(who.clientId, tenant, ctx.environment);
  ex.headers['X-RateLimit-Limit'] = String(permit.limit);
  ex.headers['X-RateLimit-Remaining'] = String(permit.remaining);
  if (!permit.permitted) {
    ex.headers['Retry-After'] = String(permit.retryAfterSeconds);
    throw new CamelRouteException(
      'rate_limited',
      'RequestNotPermitted: rate limiter is full',
      undefined,
      `retry after ${permit.retryAfterSeconds} s`,
    );
  }
}
