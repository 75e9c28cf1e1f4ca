// Dispatch: version header, the guard (bearer, rate limit, tenant), then the handler; every thrown
// HttpError becomes the failure envelope and anything else a 500 that leaks nothing but the request id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditLog } from './audit.ts';
import { METADATA_PATH, metadata, requireTenant, requireToken, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import type { CatalogRoutes } from './catalog.ts';
import { createKey, describe, info, openapiFile, openapiJson } from './describe.ts';
import { type Ctx, CURRENT_VERSION, fail, HttpError, header, nanoid, readVersion } from './http.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { ResourceRoutes } from './resources.ts';
import { match } from './route-table.ts';
import type { Store } from './state.ts';
import type { StatusStream } from './stream.ts';
import type { WebhookRoutes } from './webhooks.ts';

export class Router {
  private store: Store;
  private limiter: RateLimiter;
  private stream: StatusStream;
  private audit: AuditLog;
  private routes: { catalog: CatalogRoutes; resources: ResourceRoutes; webhooks: WebhookRoutes };
  constructor(
    store: Store,
    limiter: RateLimiter,
    stream: StatusStream,
    audit: AuditLog,
    routes: { catalog: CatalogRoutes; resources: ResourceRoutes; webhooks: WebhookRoutes },
  ) {
    this.store = store;
    this.limiter = limiter;
    this.stream = stream;
    this.audit = audit;
    this.routes = routes;
  }

  async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const ctx: Ctx = {
      req,
      res,
      method: req.method ?? 'GET',
      path,
      query: url.searchParams,
      requestId: `req_${nanoid()}`,
      version: CURRENT_VERSION,
      headers: {},
    };
    try {
      if (path === TOKEN_PATH && ctx.method === 'POST') return await tokenEndpoint(ctx, this.store);
      if (path === METADATA_PATH && ctx.method === 'GET')
        return metadata(ctx, this.store, `http://${req.headers.host ?? '127.0.0.1'}`);
      readVersion(ctx, this.store.options.requireServiceVersion);
      await this.dispatch(ctx);
    } catch (err) {
      if (res.headersSent) return void res.end();
      if (err instanceof HttpError) {
        if (this.store.options.auditRefusals && ctx.tenant && ctx.method !== 'GET') {
          this.audit.record(ctx, `request.refused.${err.code}`, 'request', `${ctx.method} ${ctx.path}`);
        }
        return fail(ctx, err);
      }
      fail(ctx, new HttpError(500, 'internal', 'Internal error', undefined, 'Quote meta.requestId to support'));
    }
  }

  /** Callers not yet known count in their address's window, unless the team leaves public routes uncounted. */
  private anonymous(ctx: Ctx) {
    if (!this.store.options.publicUncounted) this.limiter.forAnonymous(ctx);
  }

  /** Bearer first (a refused token counts in the caller's address window), then the access's window. */
  private guard(ctx: Ctx, tenantNeeded: boolean): string {
    let clientId: string;
    try {
      clientId = requireToken(ctx, this.store);
    } catch (err) {
      this.anonymous(ctx);
      throw err;
    }
    this.limiter.forAccess(ctx, clientId, header(ctx, 'x-service-tenant'));
    return tenantNeeded ? requireTenant(ctx, this.store) : '';
  }

  private async dispatch(ctx: Ctx) {
    const found = match(ctx.method, ctx.path);
    if (!found) {
      this.anonymous(ctx);
      throw new HttpError(
        404,
        'not_found',
        `No route ${ctx.method} ${ctx.path}`,
        undefined,
        'See GET /api/public/v1 for the routes',
      );
    }
    const { route, params } = found;
    const { catalog, resources, webhooks } = this.routes;
    const op = route.operationId;
    if (!route.auth) {
      // A stream asked for with a tenant header is that tenant's stream, so it needs the tenant's access.
      const tenant = op === 'stream' && header(ctx, 'x-service-tenant') ? this.guard(ctx, true) : undefined;
      if (!tenant) this.anonymous(ctx);
      if (op === 'describe') return describe(ctx);
      if (op === 'openapi') return openapiJson(ctx);
      if (op === 'openapiJsonFile') return openapiFile(ctx, params.version ?? '', false);
      if (op === 'openapiYamlFile') return openapiFile(ctx, params.version ?? '', true);
      return this.stream.open(ctx, tenant);
    }
    const tenant = this.guard(ctx, op !== 'info');
    const webhookId = params.webhookId ?? '';
    switch (op) {
      case 'info':
        return info(ctx, this.store, /^Bearer\s+(\S+)$/i.exec(header(ctx, 'authorization') ?? '')?.[1]);
      case 'listProviders':
        return catalog.providers(ctx);
      case 'listConnectors':
        return catalog.connectors(ctx);
      case 'listCapabilities':
        return catalog.catalog(ctx);
      case 'checkCapability':
        return await catalog.check(ctx);
      case 'listConnections':
        return resources.list(ctx, tenant);
      case 'createConnection':
        return await resources.create(ctx, tenant);
      case 'createIdempotencyKey':
        return await createKey(ctx);
      case 'listWebhooks':
        return webhooks.list(ctx, tenant);
      case 'createWebhook':
        return await webhooks.create(ctx, tenant);
      case 'getWebhook':
        return webhooks.get(ctx, tenant, webhookId);
      case 'deleteWebhook':
        return webhooks.remove(ctx, tenant, webhookId);
      case 'listDeliveryAttempts':
        return webhooks.deliveries(ctx, tenant, webhookId);
      case 'retryDeliveryAttempt':
        return await webhooks.retry(ctx, tenant, webhookId, params.attemptId ?? '');
      case 'listAuditLog':
        return resources.auditPage(ctx, tenant, this.audit);
    }
    throw new HttpError(404, 'not_found', 'No such operation');
  }
}
