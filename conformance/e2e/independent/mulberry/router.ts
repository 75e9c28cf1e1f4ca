// The route table (chi-style: method + path template) and the dispatch every request passes:
// Service-Version, route, authentication, handler, error envelope.

import { listAudit } from './audit.ts';
import { authenticate, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { createConnection, listConnections } from './connections.ts';
import { listDeliveries, redeliver } from './deliveries.ts';
import { ApiError, type Ctx, fail, invalid, ok, sendJson } from './http.ts';
import { issueKey } from './idempotency.ts';
import { DOC_PATHS, describe, serveDocument } from './openapi.ts';
import { DEPLOYMENT_ENV, VERSION, VERSIONS } from './state.ts';
import { serveStream } from './stream.ts';
import { createWebhook, deleteWebhook, listWebhooks } from './webhooks.ts';

type Handler = (ctx: Ctx, params: string[]) => void | Promise<void>;
interface Route {
  method: string;
  path: string;
  auth: boolean;
  purpose: string;
  handler: Handler;
  /** Added in 2026-07-01: 404 under 2026-06-12. */
  since?: string;
}

const P = '/api/public/v1';
export const ROUTES: Route[] = [
  { method: 'GET', path: P, auth: false, purpose: 'self-description', handler: (c) => describe(c, ROUTES) },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    auth: false,
    purpose: 'OpenAPI 3.1 document',
    handler: (c) => serveDocument(c, 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi.yaml`,
    auth: false,
    purpose: 'OpenAPI 3.1 document (YAML)',
    handler: (c) => serveDocument(c, 'yaml'),
  },
  { method: 'GET', path: `${P}/info`, auth: true, purpose: 'the calling access', handler: (c) => info(c) },
  { method: 'GET', path: `${P}/providers`, auth: true, purpose: 'list providers', handler: listProviders },
  { method: 'GET', path: `${P}/connectors`, auth: true, purpose: 'list connectors', handler: listConnectors },
  { method: 'GET', path: `${P}/capabilities`, auth: true, purpose: 'capability catalog', handler: listCapabilities },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    auth: true,
    purpose: 'check a capability of a connector',
    handler: checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    auth: true,
    purpose: 'connections of the tenant',
    handler: listConnections,
  },
  { method: 'POST', path: `${P}/connections`, auth: true, purpose: 'create a connection', handler: createConnection },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    auth: true,
    purpose: 'generate an idempotency key',
    handler: issueKey,
  },
  // The stream authenticates itself: public feed without credentials, the tenant's feed with them.
  {
    method: 'GET',
    path: `${P}/stream`,
    auth: false,
    purpose: 'status stream (Server-Sent Events)',
    handler: serveStream,
  },
  { method: 'GET', path: `${P}/webhooks`, auth: true, purpose: 'list webhook receivers', handler: listWebhooks },
  { method: 'POST', path: `${P}/webhooks`, auth: true, purpose: 'create a webhook receiver', handler: createWebhook },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    auth: true,
    purpose: 'remove a webhook receiver',
    handler: (c, [id]) => deleteWebhook(c, id ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/deliveries`,
    auth: true,
    purpose: 'delivery log of a webhook receiver (?webhook_id=)',
    handler: listDeliveries,
    since: VERSION,
  },
  {
    method: 'POST',
    path: `${P}/deliveries/{deliveryId}/redeliver`,
    auth: true,
    purpose: 'send a delivery again',
    handler: (c, [id]) => redeliver(c, id ?? ''),
    since: VERSION,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    auth: true,
    purpose: 'audit log with a proof of integrity',
    handler: listAudit,
  },
];

const compiled = ROUTES.map((r) => ({ r, re: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`) }));

function info(ctx: Ctx): void {
  const a = ctx.auth;
  ok(ctx, {
    tenant: a?.tenant,
    clientId: a?.clientId,
    environment: DEPLOYMENT_ENV,
    tokenExpiresAt: new Date(a?.expiresAt ?? 0).toISOString(),
  });
}

function version(ctx: Ctx): void {
  const raw = ctx.req.headers['service-version'];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (v === undefined || v === '') {
    ctx.version = VERSION;
    if (ctx.state.opts.versionRequired)
      throw invalid(
        'Service-Version header required.',
        `One of ${VERSIONS.join(', ')}.`,
        `Send Service-Version: ${VERSION}.`,
      );
    return;
  }
  if (!(VERSIONS as readonly string[]).includes(v)) {
    ctx.version = VERSION;
    // unknownVersionAsCurrent: an unknown value is answered as the current version.
    if (ctx.state.opts.unknownVersionAsCurrent) return;
    throw invalid(
      'Unknown Service-Version.',
      `Service-Version: one of ${VERSIONS.join(', ')}.`,
      `Send Service-Version: ${VERSION}.`,
    );
  }
  ctx.version = v;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw invalid('Malformed path segment.', s);
  }
}

export async function dispatch(ctx: Ctx): Promise<void> {
  const path = ctx.url.pathname;
  try {
    if (path === TOKEN_PATH) return await tokenEndpoint(ctx.req, ctx.res, ctx.state);
    if (path === '/.well-known/oauth-authorization-server' || path === `/.well-known/oauth-authorization-server${P}`)
      return sendJson(ctx, 200, metadata(ctx.origin));
    const doc = DOC_PATHS[path];
    if (doc && ctx.req.method === 'GET') {
      ctx.version = VERSION;
      return serveDocument(ctx, doc);
    }
    version(ctx);
    const hit = compiled
      .map(({ r, re }) => ({ r, m: re.exec(path) }))
      .find((x) => x.m && x.r.method === ctx.req.method);
    if (!hit?.m || (hit.r.since && ctx.version < hit.r.since))
      throw new ApiError('not_found', 'No such endpoint.', `${ctx.req.method} ${path}`);
    if (hit.r.auth) authenticate(ctx);
    await hit.r.handler(ctx, hit.m.slice(1).map(decodeSegment));
  } catch (e) {
    if (ctx.res.headersSent) return void ctx.res.end();
    if (e instanceof ApiError) return fail(ctx, e);
    fail(ctx, new ApiError('internal', 'Internal error.', `Quote request ${ctx.requestId} to support.`));
  }
}
