// Router: public routes, bearer + tenant authentication, token-bucket rate limit, idempotency records.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditLog } from './audit.ts';
import type { Ctx } from './handlers.ts';
import * as h from './handlers.ts';
import type { Call } from './http-kit.ts';
import {
  ApiError,
  canonical,
  newId,
  parseJsonObject,
  readBody,
  sendData,
  sendError,
  VERSION,
  VERSIONS,
} from './http-kit.ts';
import { openApi, selfDescription } from './openapi.ts';
import type { GorseState } from './state.ts';
import { openStream } from './stream.ts';
import type { WebhookHub } from './webhooks.ts';

type KeyRule = 'required' | 'optional';
interface Route {
  method: string;
  path: RegExp;
  key?: KeyRule;
  run: (c: Ctx) => unknown;
  query?: string[];
}

const P = '/api/public/v1';
const ID = '([^/]{1,200})';
export const ROUTES: Route[] = [
  { method: 'GET', path: /^\/providers$/, run: h.listProviders, query: ['category'] },
  { method: 'GET', path: /^\/connectors$/, run: h.listConnectors, query: ['capability', 'providerId', 'category'] },
  { method: 'GET', path: /^\/capabilities$/, run: h.listCapabilities },
  { method: 'POST', path: /^\/capabilities$/, key: 'optional', run: h.checkCapability },
  { method: 'GET', path: /^\/connections$/, run: h.listConnections },
  { method: 'POST', path: /^\/connections$/, key: 'required', run: h.createConnection },
  { method: 'GET', path: new RegExp(`^/connections/${ID}$`), run: h.getConnection },
  { method: 'POST', path: /^\/idempotency-keys$/, key: 'optional', run: h.issueKey },
  { method: 'POST', path: /^\/webhooks$/, key: 'required', run: h.createWebhook },
  { method: 'DELETE', path: new RegExp(`^/webhooks/${ID}$`), key: 'required', run: h.deleteWebhook },
  { method: 'GET', path: new RegExp(`^/webhooks/${ID}/delivery-attempts$`), run: h.deliveryLog },
  { method: 'POST', path: new RegExp(`^/webhook-deliveries/${ID}/resend$`), key: 'required', run: h.redeliver },
  { method: 'GET', path: /^\/audit-log$/, run: auditLog, query: ['limit', 'cursor'] },
  { method: 'GET', path: /^\/info$/, run: h.info },
];

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  state: GorseState,
  hub: WebhookHub,
  base: string,
) {
  const url = new URL(req.url ?? '/', base);
  const call: Call = { req, res, url, requestId: newId('req'), version: VERSION };
  try {
    const sv = header(req, 'service-version');
    if (sv !== undefined) {
      if (!VERSIONS.includes(sv))
        throw new ApiError('invalid_request', 'unknown Service-Version', `published: ${VERSIONS.join(', ')}`);
      call.version = sv;
    }
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (!path.startsWith(P)) throw new ApiError('not_found', 'no such path');
    const rest = path.slice(P.length);
    if (req.method === 'GET' && rest === '')
      return sendData(call, selfDescription(ROUTES.length), 'public, max-age=300');
    if (req.method === 'GET' && rest === '/openapi.json') return sendOpenApi(call);
    if (req.method === 'GET' && rest === '/stream') return openStream(call, state);
    const route = ROUTES.find((r) => r.method === req.method && r.path.test(rest));
    if (!route) throw new ApiError('not_found', 'no such endpoint');
    await authenticated(call, route, rest, state, hub);
  } catch (e) {
    if (res.headersSent) return void res.end();
    if (e instanceof ApiError) return sendError(call, e.code, e.message, e.hint ? { hint: e.hint } : {});
    sendError(call, 'internal', 'unexpected fault; quote the request id to support');
  }
}

function sendOpenApi(call: Call) {
  const body = JSON.stringify(openApi());
  call.res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=300',
    'x-request-id': call.requestId,
  });
  call.res.write(body);
  call.res.end();
}

async function authenticated(call: Call, route: Route, rest: string, state: GorseState, hub: WebhookHub) {
  const { req, res } = call;
  const auth = header(req, 'authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  const clientId = m?.[1] ? state.tokenClient(m[1]) : undefined;
  if (!clientId) throw new ApiError('unauthorized', 'a valid bearer token is required', 'request a new access token');
  const tenant = header(req, 'x-service-tenant');
  const bucket = state.take(`${clientId}|${tenant ?? '-'}`);
  res.setHeader('x-ratelimit-limit', String(state.opts.bucketSize));
  res.setHeader('x-ratelimit-remaining', String(bucket.remaining));
  res.setHeader(
    'x-ratelimit-policy',
    `token-bucket;capacity=${state.opts.bucketSize};refill=${state.opts.refillPerSecond}/s`,
  );
  if (!bucket.ok) {
    res.setHeader('retry-after', String(bucket.retryAfter));
    throw new ApiError('rate_limited', 'token bucket empty', `retry after ${bucket.retryAfter} s`);
  }
  if (!tenant) throw new ApiError('invalid_request', 'header x-service-tenant is required');
  if (!state.released.has(tenant)) throw new ApiError('forbidden', 'this access is not released for the tenant');
  const key = header(req, 'idempotency-key');
  if (route.key === 'required' && key === undefined)
    throw new ApiError('idempotency_required', 'header Idempotency-Key is required');
  if (key !== undefined && route.key && !KEY.test(key))
    throw new ApiError('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
  if (state.opts.strictQuery) {
    for (const q of call.url.searchParams.keys()) {
      if (!(route.query ?? []).includes(q)) throw new ApiError('invalid_request', `unknown query parameter ${q}`);
    }
  }
  if (
    state.opts.strictContentType &&
    req.method === 'POST' &&
    !/^application\/json\b/i.test(header(req, 'content-type') ?? '')
  ) {
    throw new ApiError('invalid_request', 'send the body as application/json');
  }
  const text = req.method === 'POST' ? await readBody(req) : '';
  const body = req.method === 'POST' && text.trim() !== '' ? parseJsonObject(text) : {};
  const params = (route.path.exec(rest) ?? []).slice(1);
  const ctx: Ctx = { state, hub, tenant, clientId, body, params, url: call.url };
  if (!route.key || key === undefined) return sendData(call, route.run(ctx));
  const scope = `${clientId}|${tenant}|${key}`;
  const fingerprint = `${req.method} ${rest} ${canonical(body)}`;
  const prior = state.idemGet(scope);
  if (prior) {
    if (prior.fingerprint !== fingerprint)
      throw new ApiError(
        'idempotency_conflict',
        'this key was used with other content',
        'use a new key for each new operation',
      );
    call.extraMeta = { idempotencyKey: key, replayed: true };
    res.setHeader('idempotent-replayed', 'true');
    const redact = state.opts.redactSecretOnReplay && rest === '/webhooks';
    return sendData(call, redact ? { ...(prior.data as object), hmacSecret: null } : prior.data);
  }
  const data = route.run(ctx);
  state.idem.set(scope, { fingerprint, firstUse: Date.now(), status: 200, data: JSON.parse(JSON.stringify(data)) });
  call.extraMeta = { idempotencyKey: key, replayed: false };
  sendData(call, data);
}
