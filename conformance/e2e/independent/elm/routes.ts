// The router: Service-Version, trailing slashes, HEAD, public and authenticated routes, 404 otherwise.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Audit } from './audit.ts';
import { auditLog } from './audit.ts';
import type { Auth } from './auth.ts';
import { authenticate, countIfAuthenticated, discovery, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { capabilities, checkCapability, connectors, info, providers, selfDescription } from './catalog.ts';
import type { Emit } from './connections.ts';
import { createConnection, createIdempotencyKey, listConnections } from './connections.ts';
import type { Ctx } from './http.ts';
import {
  allowQuery,
  baseUrlOf,
  CURRENT_VERSION,
  HttpError,
  newRequestId,
  newTraceId,
  sendError,
  sendJson,
  VERSIONS,
} from './http.ts';
import type { Idempotency } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import type { Store } from './state.ts';
import { openStream } from './stream.ts';
import type { Webhooks } from './webhooks.ts';
import { createWebhook, deleteWebhook, listDeliveries, redeliver } from './webhooks.ts';

export type ElmDeps = {
  store: Store;
  webhooks: Webhooks;
  idem: Idempotency;
  audit: Audit;
  auth: Auth;
  emit: Emit;
  activationMs: number;
  streamMaxMs: number;
  serviceVersionRequired: boolean;
};

const PREFIX = '/api/public/v1';

type Handler = (ctx: Ctx, deps: ElmDeps, params: string[]) => void | Promise<void>;
const AUTHENTICATED: [string, RegExp, Handler][] = [
  ['GET', /^\/info$/, (ctx) => info(ctx)],
  ['GET', /^\/providers$/, (ctx) => providers(ctx)],
  ['GET', /^\/connectors$/, (ctx) => connectors(ctx)],
  ['GET', /^\/capabilities$/, (ctx) => capabilities(ctx)],
  ['POST', /^\/capabilities$/, (ctx) => checkCapability(ctx)],
  ['GET', /^\/connections$/, (ctx, deps) => listConnections(ctx, deps)],
  ['POST', /^\/connections$/, (ctx, deps) => createConnection(ctx, deps)],
  ['POST', /^\/idempotency-keys$/, (ctx, deps) => createIdempotencyKey(ctx, deps.idem)],
  ['POST', /^\/webhooks$/, (ctx, deps) => createWebhook(ctx, deps)],
  ['DELETE', /^\/webhooks\/([^/]+)$/, (ctx, deps, p) => deleteWebhook(ctx, deps, p[0] ?? '')],
  ['GET', /^\/webhooks\/([^/]+)\/deliveries$/, (ctx, deps, p) => listDeliveries(ctx, deps, p[0] ?? '')],
  [
    'POST',
    /^\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/,
    (ctx, deps, p) => redeliver(ctx, deps, p[0] ?? '', p[1] ?? ''),
  ],
  ['GET', /^\/audit-log$/, (ctx, deps) => auditLog(ctx, deps.audit)],
];

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function checkVersion(ctx: Ctx, deps: ElmDeps): void {
  const sent = ctx.req.headers['service-version'];
  if (typeof sent === 'string' && !VERSIONS.includes(sent)) {
    throw new HttpError('invalid_request', `Unknown Service-Version '${sent}'.`, `Supported: ${VERSIONS.join(', ')}.`);
  }
  if (sent === undefined && deps.serviceVersionRequired)
    throw new HttpError('invalid_request', 'The header Service-Version is required.');
}

async function dispatch(ctx: Ctx, deps: ElmDeps): Promise<void> {
  const get = ctx.method === 'GET' || ctx.method === 'HEAD';
  if (ctx.path === '/.well-known/openid-configuration' && get) return discovery(ctx);
  if (ctx.path === TOKEN_PATH && ctx.method === 'POST') return tokenEndpoint(ctx, deps.auth, await readForm(ctx.req));
  if (ctx.path !== PREFIX && !ctx.path.startsWith(`${PREFIX}/`))
    throw new HttpError('not_found', 'No resource at this address.');
  const rest = ctx.path.slice(PREFIX.length);
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  for (const [m, pattern, handler] of AUTHENTICATED) {
    const match = pattern.exec(rest);
    if (match && m === method) {
      // Authentication (and so rate counting) comes first: every authenticated answer carries the headers.
      authenticate(ctx, deps.auth, deps.store);
      checkVersion(ctx, deps);
      return handler(
        ctx,
        deps,
        match.slice(1).map((p) => decodeURIComponent(p)),
      );
    }
  }
  const isPublic = get && (rest === '' || rest === '/openapi.json' || rest === '/stream');
  // A valid token on an unknown address is still counted, so that answer carries the headers too.
  if (!isPublic) countIfAuthenticated(ctx, deps.auth);
  checkVersion(ctx, deps);
  if (rest === '' && get) return selfDescription(ctx);
  if (rest === '/openapi.json' && get) {
    allowQuery(ctx, []);
    return sendJson(ctx, 200, openApiDocument(baseUrlOf(ctx), deps.audit.maxLimit));
  }
  if (rest === '/stream' && get) return openStream(ctx, deps.store, deps.streamMaxMs);
  // An unoffered method or path: 404 not_found (the contract's status list has no 405).
  throw new HttpError('not_found', 'No resource at this address.');
}

export async function route(req: IncomingMessage, res: ServerResponse, deps: ElmDeps): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  let path = url.pathname;
  // Trailing slashes are tolerated, as ASP.NET routing does.
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const sent = req.headers['service-version'];
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path,
    query: url.searchParams,
    requestId: newRequestId(),
    traceId: newTraceId(),
    version: typeof sent === 'string' && VERSIONS.includes(sent) ? sent : CURRENT_VERSION,
    headers: {},
  };
  ctx.headers['Service-Version'] = ctx.version;
  try {
    await dispatch(ctx, deps);
  } catch (error) {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error instanceof HttpError) sendError(ctx, error.code, error.message, error.hint);
    else sendError(ctx, 'internal', 'An unexpected error occurred.', 'Quote the request id to support.');
  }
}
