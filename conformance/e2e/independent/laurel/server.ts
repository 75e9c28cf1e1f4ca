// laurel: an independent deployment of the Network Connections Service interface, written from
// interface.md alone in the style of a Python FastAPI team behind Traefik. Two loopback ports share
// one state (main and alternate base address); the OAuth token endpoint lives on both.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, METADATA_PATH, metadata, released, TOKEN_PATH, tenantHeader, tokenEndpoint } from './auth.ts';
import type { Handler } from './handlers.ts';
import * as h from './handlers.ts';
import type { Ctx } from './http-util.ts';
import { ApiError, newCtx, sendError, sendJson } from './http-util.ts';
import { openApiDocument, yamlDocument } from './openapi.ts';
import { bucketKey } from './rate-limit.ts';
import type { Route } from './routes.ts';
import { ROUTES } from './routes.ts';
import type { LaurelOptions } from './state.ts';
import { State } from './state.ts';
import { CURRENT_VERSION } from './util.ts';
import * as w from './webhook-handlers.ts';

export interface Laurel {
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

function document(ctx: Ctx, file: string): void {
  const m = /^v(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(file);
  const version = m?.[1] ?? '';
  if (!m || !['2026-06-12', '2026-07-01'].includes(version))
    throw new ApiError('not_found', 'path.file: no such document');
  const yaml = m[2] === 'yaml';
  const text = yaml ? yamlDocument(version) : JSON.stringify(openApiDocument(version));
  ctx.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml' : 'application/json',
    'content-disposition': `attachment; filename="laurel-openapi-${file}"`,
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(text);
}

const HANDLERS: Record<string, Handler> = {
  getSelfDescription: h.selfDescription,
  getOpenApiJson: (ctx) => sendJson(ctx, 200, openApiDocument(CURRENT_VERSION)),
  getOpenApiYaml: (ctx) => document(ctx, `v${CURRENT_VERSION}.yaml`),
  getVersionedOpenApi: (ctx, _s, params) => document(ctx, params.file ?? ''),
  getInfo: h.info,
  listProviders: h.providers,
  listConnectors: h.connectors,
  listCapabilities: h.capabilities,
  checkCapability: h.checkCapability,
  listConnections: h.listConnections,
  createConnection: h.createConnection,
  createIdempotencyKey: h.createKey,
  getStatusStream: (ctx, state) => {
    const after = state.stream.resumeFrom(ctx);
    // Public without credentials; with a bearer token the caller gets its tenant's own channel.
    const channel = ctx.req.headers.authorization ? `tenant:${authenticate(ctx, state)}` : 'public';
    state.stream.serve(ctx, channel, after);
  },
  createWebhook: w.createWebhook,
  deleteWebhook: w.deleteWebhook,
  listWebhookDeliveries: w.listDeliveries,
  redeliverWebhookDelivery: w.redeliver,
  getAuditLog: w.auditLog,
  getAuditLogKey: w.auditKey,
};

/** Matches a request to a route; path parameters come back by name. */
export function match(
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of ROUTES) {
    const names: string[] = [];
    const re = new RegExp(
      `^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params, pathKnown };
  }
  return { params: {}, pathKnown };
}

/** Bearer -> tenant header -> rate limit (client + tenant + environment) -> tenant released. */
function authenticate(ctx: Ctx, state: State): string {
  ctx.rate = state.limiter.peek(undefined);
  ctx.clientId = bearer(ctx, state.auth);
  const tenant = tenantHeader(ctx);
  const taken = state.limiter.take(bucketKey(ctx.clientId, tenant));
  ctx.rate = taken.info;
  if (!taken.ok)
    throw new ApiError(
      'rate_limited',
      'rate limit of this access, tenant and environment exhausted',
      'wait Retry-After seconds, then retry with growing intervals',
    );
  released(state.auth, ctx.clientId, tenant);
  ctx.tenant = tenant;
  return tenant;
}

/**
 * Optionally (LAUREL_AUDIT_REFUSALS=1) a refused modifying call of a known tenant is recorded too, as a
 * security audit trail: the operation, the status and code, and the Idempotency-Key (no body values).
 */
function auditRefusal(ctx: Ctx, state: State, err: ApiError): void {
  if (!state.options.auditRefusals || !ctx.tenant || ctx.method === 'GET' || err.status >= 500) return;
  state.audit.record(ctx.tenant, {
    actor: ctx.clientId ?? '',
    action: 'request.refused',
    resourceType: 'request',
    resourceId: `${ctx.method} ${ctx.path}`,
    requestId: ctx.requestId,
    details: { status: err.status, code: err.code, idempotencyKey: ctx.idempotencyKey ?? null },
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, state: State, origin: string): Promise<void> {
  const ctx = newCtx(req, res, origin);
  if (ctx.path === TOKEN_PATH) return tokenEndpoint(req, res, state.auth);
  if (ctx.path === METADATA_PATH) return metadata(res, origin);
  try {
    const { route, params, pathKnown } = match(ctx.method, ctx.path);
    // The Errors table has no 405: a known path with another method is "not found" too.
    if (!route) throw new ApiError('not_found', pathKnown ? 'method: not offered on this path' : 'path: not found');
    if (route.auth !== 'public') authenticate(ctx, state);
    const handler = HANDLERS[route.operationId];
    if (!handler) throw new ApiError('not_found', 'path: not found');
    await handler(ctx, state, params);
  } catch (err) {
    if (res.headersSent) return void res.destroy();
    if (err instanceof ApiError) {
      auditRefusal(ctx, state, err);
      return sendError(ctx, err);
    }
    // Logged server-side only; the answer carries the request id and nothing internal.
    console.error(`[laurel] ${ctx.requestId}`, err);
    sendError(ctx, new ApiError('internal', undefined, 'note the request id and inform support'));
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startLaurel(options: LaurelOptions & { port?: number; altPort?: number } = {}): Promise<Laurel> {
  const clientId = 'laurel-ci';
  const clientSecret =
    process.env.LAUREL_CLIENT_SECRET ?? `lcs-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const state = new State(
    {
      clients: [{ id: clientId, secret: clientSecret, tenants: ['laurel-harbour', 'laurel-summit'] }],
      tenants: ['laurel-harbour', 'laurel-summit', 'laurel-outpost'],
      tokens: new Map(),
      tokenLifetimeS: options.tokenLifetimeS ?? 300,
    },
    options,
  );
  const servers: Server[] = [];
  const origins: string[] = [];
  for (const port of [options.port ?? 0, options.altPort ?? 0]) {
    let origin = '';
    const server = createServer((req, res) => {
      void handle(req, res, state, origin);
    });
    server.keepAliveTimeout = 5000;
    origin = `http://127.0.0.1:${await listen(server, port)}`;
    servers.push(server);
    origins.push(origin);
  }
  const [baseUrl = '', altBaseUrl = ''] = origins;
  return {
    baseUrl,
    altBaseUrl,
    tenant: 'laurel-harbour',
    otherTenant: 'laurel-summit',
    foreignTenant: 'laurel-outpost',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    state,
    async close() {
      state.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
