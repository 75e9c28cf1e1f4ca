// startCedar(): cedar on two loopback addresses (main and alt) sharing one state, plus its token endpoint.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuth } from './auth.ts';
import type { Ctx } from './http-kit.ts';
import {
  ApiError,
  CURRENT_VERSION,
  newRequestId,
  PUBLISHED_VERSIONS,
  sendError,
  sendJson,
  sendOk,
} from './http-kit.ts';
import { runKeyed } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import type { Deps } from './operations.ts';
import { match, ROUTES } from './routes.ts';
import { createStore } from './store.ts';
import { openStream } from './stream.ts';
import { KEY_PATTERN } from './validate.ts';
import { createWebhooks } from './webhooks.ts';

export type Cedar = {
  baseUrl: string;
  altBaseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  close(): Promise<void>;
};

/** Knobs for trying other legal choices by hand (start.ts reads them from CEDAR_* variables); defaults are cedar's. */
export type CedarOptions = {
  rateLimit?: number;
  windowMs?: number;
  activationMs?: number;
  /** "not shown" whether Service-Version is mandatory: true refuses calls without it (400 invalid_request) */
  serviceVersionRequired?: boolean;
  /** HTTP/1.1 keep-alive: requests per connection before the server closes it */
  maxRequestsPerSocket?: number;
  /** a replayed webhook registration leaves the signing key out ("issued exactly once" read strictly) */
  redactKeyOnReplay?: boolean;
  /** authenticated stream readers get their tenant's own numbering (the public stream stays global) */
  tenantStreams?: boolean;
  /** the audit log oldest first, paged by a Link header only */
  auditOldestFirst?: boolean;
  /** critical capabilities are not booked for production */
  productionCriticalDenied?: boolean;
  /** state changes reach the stream and webhooks through an outbox relayed this much later */
  relayDelayMs?: number;
  /** links (token endpoint, OpenAPI servers) built from the address called, absolute */
  linksFromHost?: boolean;
};

export async function startCedar(options: CedarOptions = {}): Promise<Cedar> {
  const clientId = 'cedar-conformance';
  const clientSecret = `cs_${randomBytes(24).toString('hex')}`;
  const tenants = { tenant: 'cedar-north', otherTenant: 'cedar-south', foreignTenant: 'cedar-east' };
  const auth = createAuth({
    clients: [
      {
        id: clientId,
        secret: clientSecret,
        tenants: [tenants.tenant, tenants.otherTenant],
        purpose: 'conformance runs',
        owner: 'platform-team@cedar.example',
      },
    ],
    rateLimit: options.rateLimit ?? 1000,
    windowMs: options.windowMs ?? 60_000,
  });
  const store = createStore(options.relayDelayMs ?? 0);
  const webhooks = createWebhooks(store);
  const deps: Deps = {
    store,
    webhooks,
    activationMs: options.activationMs ?? 250,
    redactKeyOnReplay: options.redactKeyOnReplay === true,
    auditOldestFirst: options.auditOldestFirst === true,
    productionCriticalDenied: options.productionCriticalDenied === true,
  };
  let mainOrigin = '';

  function linkOrigin(ctx: Ctx): string {
    return options.linksFromHost && ctx.req.headers.host ? `http://${ctx.req.headers.host}` : mainOrigin;
  }
  function describe(ctx: Ctx): void {
    const mainOrigin = linkOrigin(ctx);
    sendOk(ctx, {
      service: 'Network Connections Service',
      surface: 'public',
      version: ctx.version,
      authentication: {
        type: 'oauth2',
        flows: ['client_credentials'],
        tokenEndpoint: `${mainOrigin}/oauth2/token`,
        metadata: `${mainOrigin}/.well-known/oauth-authorization-server`,
        tenantHeader: 'x-service-tenant',
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: KEY_PATTERN.source,
        retentionSeconds: 86400,
        issue: 'POST /api/public/v1/idempotency-keys',
      },
      routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    });
  }

  async function dispatch(ctx: Ctx): Promise<void> {
    const { req, res } = ctx;
    if (ctx.path === '/oauth2/token') return auth.tokenEndpoint(req, res);
    if (ctx.path === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          issuer: mainOrigin,
          token_endpoint: `${mainOrigin}/oauth2/token`,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        }),
      );
      return;
    }
    const asked = req.headers['service-version'];
    if (typeof asked === 'string') {
      if (!PUBLISHED_VERSIONS.includes(asked.trim())) {
        throw new ApiError(
          'invalid_request',
          'unknown Service-Version',
          `published versions: ${PUBLISHED_VERSIONS.join(', ')}`,
        );
      }
      ctx.version = asked.trim();
    } else if (options.serviceVersionRequired && ctx.path.startsWith('/api/public/v1')) {
      throw new ApiError(
        'invalid_request',
        'the header Service-Version is required',
        `send Service-Version: ${CURRENT_VERSION}`,
      );
    }
    // Browsers are not offered: no preflight, no CORS headers.
    if (ctx.method === 'OPTIONS')
      throw new ApiError('forbidden', 'cross-origin calls are not offered', 'call the interface from your server');
    // A trailing slash on a read is redirected (308 keeps the method); the interface's paths have none.
    if (ctx.path.length > 1 && ctx.path.endsWith('/') && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      res.writeHead(308, {
        location: `${ctx.path.replace(/\/+$/, '')}${ctx.url.search}`,
        'x-request-id': ctx.requestId,
        'content-length': '0',
      });
      res.end();
      return;
    }
    const { route, params } = match(ctx.method, ctx.path);
    if (route.path === '/api/public/v1') return describe(ctx);
    if (route.path.endsWith('/openapi.json'))
      return sendJson(ctx, 200, openApiDocument(linkOrigin(ctx), options.linksFromHost === true), {
        etagOf: 'openapi',
      });
    if (route.path.endsWith('/stream')) {
      // Variant: a caller with a valid token and tenant reads its tenant's own stream; anyone else the public one.
      let tenant: string | undefined;
      if (options.tenantStreams && req.headers.authorization) {
        try {
          tenant = auth.authenticate(ctx).tenant;
        } catch {
          tenant = undefined;
        }
      }
      return openStream(ctx, store, tenant);
    }
    const principal = auth.authenticate(ctx);
    if (typeof req.headers.origin === 'string') {
      throw new ApiError('forbidden', 'calls from a browser are not accepted', 'credentials stay in your backend');
    }
    auth.count(ctx, principal);
    if (route.key || route.keyOptional) {
      const raw = req.headers['idempotency-key'];
      if (raw === undefined && route.key)
        throw new ApiError('idempotency_required', 'header Idempotency-Key missing', 'send an Idempotency-Key');
      if (raw !== undefined && (typeof raw !== 'string' || !KEY_PATTERN.test(raw))) {
        throw new ApiError('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
      }
      if (typeof raw === 'string') ctx.idempotencyKey = raw;
    }
    const keyed = route.keyed ?? route.keyOptional;
    if (keyed) return runKeyed(ctx, principal, deps, keyed, params);
    if (route.handler) await route.handler(ctx, principal, deps, params);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://cedar.invalid');
    const ctx: Ctx = {
      req,
      res,
      url,
      method: req.method ?? 'GET',
      path: url.pathname,
      requestId: newRequestId(),
      version: CURRENT_VERSION,
      origin: mainOrigin,
      headers: {},
    };
    try {
      await dispatch(ctx);
    } catch (err) {
      if (res.headersSent) return void res.destroy();
      sendError(
        ctx,
        err instanceof ApiError
          ? err
          : new ApiError('internal', undefined, `quote request id ${ctx.requestId} to support`),
      );
    }
  }

  const servers: Server[] = [];
  async function listen(): Promise<string> {
    const server = createServer((req, res) => void handle(req, res));
    server.keepAliveTimeout = 5000;
    server.maxRequestsPerSocket = options.maxRequestsPerSocket ?? 500;
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  mainOrigin = await listen();
  const altOrigin = await listen();
  return {
    baseUrl: mainOrigin,
    altBaseUrl: altOrigin,
    tokenUrl: `${mainOrigin}/oauth2/token`,
    clientId,
    clientSecret,
    ...tenants,
    async close() {
      webhooks.close();
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
