// The request pipeline, in the order a Rails stack runs it: request id (from nginx), Rack::Attack
// throttle, routing (404 for anything unrouted, any method), Service-Version, authentication, tenant,
// Idempotency-Key format, JSON body, then the action. Every refusal is the failure envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditLog } from './audit.ts';
import { authenticate, requireTenant, TOKEN_PATH, tenantOf, tokenEndpoint } from './auth.ts';
import { newUuid } from './catalog.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './connections.ts';
import { describe, getConnection, info, serveOpenApi } from './describe.ts';
import { drain, readJsonObject, sendError } from './http-kit.ts';
import { issueKey } from './idempotency.ts';
import { countCall } from './rate-limit.ts';
import { ROUTES, type Route } from './route-table.ts';
import { openStream } from './stream.ts';
import { type Ctx, CURRENT_VERSION, HttpError, type State, VERSIONS } from './types.ts';
import { idempotencyKeyHeader } from './validate.ts';
import { deleteWebhook, deliveryLog, listWebhooks, registerWebhook, retryDelivery, showWebhook } from './webhooks.ts';

type Body = Record<string, unknown>;
type Action = (ctx: Ctx, params: Record<string, string>, body: Body | undefined) => void;

const need = (body: Body | undefined): Body => body ?? {};

const ACTIONS: Record<string, Action> = {
  describeService: (ctx) => describe(ctx),
  getInfo: (ctx) => info(ctx),
  listProviders: (ctx) => listProviders(ctx),
  listConnectors: (ctx) => listConnectors(ctx),
  listCapabilities: (ctx) => listCapabilities(ctx),
  checkCapability: (ctx, _p, body) => checkCapability(ctx, need(body)),
  listConnections: (ctx) => listConnections(ctx),
  createConnection: (ctx, _p, body) => createConnection(ctx, need(body)),
  getConnection: (ctx, p) => getConnection(ctx, p.connectionId ?? ''),
  createIdempotencyKey: (ctx, _p, body) => issueKey(ctx, need(body)),
  streamStatus: (ctx) => openStream(ctx),
  createWebhook: (ctx, _p, body) => registerWebhook(ctx, need(body)),
  listWebhooks: (ctx) => listWebhooks(ctx),
  getWebhook: (ctx, p) => showWebhook(ctx, p.webhookId ?? ''),
  deleteWebhook: (ctx, p) => deleteWebhook(ctx, p.webhookId ?? ''),
  listWebhookDeliveries: (ctx, p) => deliveryLog(ctx, p.webhookId ?? ''),
  retryWebhookDelivery: (ctx, p, body) => retryDelivery(ctx, p.webhookId ?? '', p.deliveryId ?? '', body),
  getAuditLog: (ctx) => auditLog(ctx),
};

function requestedVersion(req: IncomingMessage): string | undefined {
  const raw = req.headers['service-version'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return CURRENT_VERSION;
  return VERSIONS.includes(value.trim()) ? value.trim() : undefined;
}

export async function handle(state: State, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === TOKEN_PATH) return tokenEndpoint(state, req, res);
  const ctx: Ctx = {
    req,
    res,
    url,
    state,
    requestId: newUuid(),
    started: Date.now(),
    version: CURRENT_VERSION,
    rateHeaders: {},
  };
  try {
    const counted = countCall(state, req);
    ctx.rateHeaders = counted.headers;
    if (counted.limited) throw counted.limited;
    const version = requestedVersion(req);
    if (version === undefined) {
      throw new HttpError(
        400,
        'invalid_request',
        'Unknown Service-Version.',
        `Published versions: ${VERSIONS.join(', ')}.`,
        'Send 2026-07-01 or leave the header out.',
      );
    }
    ctx.version = version;
    const match = matchRoute(req.method ?? 'GET', url.pathname);
    if (!match)
      throw new HttpError(
        404,
        'not_found',
        'No route matches this method and path.',
        undefined,
        'Compare the path with the published description.',
      );
    await run(ctx, match);
  } catch (err) {
    req.resume();
    if (err instanceof HttpError) return sendError(ctx, err);
    sendError(
      ctx,
      new HttpError(
        500,
        'internal',
        'Something went wrong on our side.',
        undefined,
        'Note the request id and inform support.',
      ),
    );
  }
}

async function run(ctx: Ctx, { route, params }: Match) {
  if (route.since !== undefined && ctx.version < route.since && ctx.state.options.deliveryLogCurrentOnly) {
    throw new HttpError(
      404,
      'not_found',
      `This route exists from version ${route.since} on.`,
      undefined,
      `Send Service-Version: ${route.since}.`,
    );
  }
  if (route.auth) {
    authenticate(ctx);
    requireTenant(ctx);
  }
  if (route.key !== 'none') ctx.idempotencyKey = idempotencyKeyHeader(ctx.req.headers['idempotency-key']);
  let body: Body | undefined;
  if (route.method === 'POST' && route.operationId !== 'retryWebhookDelivery') body = await readJsonObject(ctx);
  else if (route.operationId === 'retryWebhookDelivery') body = await optionalBody(ctx);
  else await drain(ctx.req);
  if (route.operationId.startsWith('getOpenApi') || route.operationId.startsWith('downloadOpenApi')) {
    return serveOpenApi(ctx, route.path);
  }
  const action = ACTIONS[route.operationId];
  if (!action) throw new HttpError(404, 'not_found', 'No route matches this method and path.');
  if (route.auth) tenantOf(ctx);
  action(ctx, params, body);
}

// The retry call needs no body; an empty one is fine, a present one must still be a JSON object.
async function optionalBody(ctx: Ctx): Promise<Body | undefined> {
  const length = Number(ctx.req.headers['content-length'] ?? '0');
  if (length === 0 && ctx.req.headers['transfer-encoding'] === undefined) {
    await drain(ctx.req);
    return undefined;
  }
  return readJsonObject(ctx).catch((err: unknown) => {
    if (err instanceof HttpError && err.message === 'A JSON body is required.') return undefined;
    throw err;
  });
}

type Match = { route: Route; params: Record<string, string> };

function matchRoute(method: string, pathname: string): Match | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const names: string[] = [];
    const pattern = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const m = new RegExp(`^${pattern}$`).exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params };
  }
  return undefined;
}
