// yew: an independent deployment of the Network Connections Service interface, written from interface.md
// alone in the style of an ASP.NET Core team behind an API gateway. Two loopback ports share one state.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuditLog } from './audit.ts';
import { createAuth } from './auth.ts';
import {
  type Ctx,
  CURRENT_VERSION,
  invalid,
  newRequestId,
  newTraceId,
  sendError,
  sendJson,
  setClockOffset,
  VERSIONS,
} from './http-util.ts';
import { createIdempotencyStore } from './idempotency.ts';
import type { App } from './pipeline.ts';
import { createRateLimiter } from './rate-limit.ts';
import { route } from './router.ts';
import { createStreamHub } from './stream.ts';
import { createWebhooks } from './webhooks.ts';

export interface YewOptions {
  /** Calls per window per client, tenant and environment (default 1000). */
  rateLimit?: number;
  /** Window length in ms (default 60 000). */
  windowMs?: number;
  /** Delay before a new connection becomes active (default 250 ms). */
  activationMs?: number;
  tokenTtlSec?: number;
  port?: number;
  altPort?: number;
  /** Minutes east of UTC for every written time (DateTimeOffset.Now of a server elsewhere; default 0). */
  clockOffsetMinutes?: number;
  /** Service-Version (or api-version) mandatory: a call without either is refused 400. */
  serviceVersionRequired?: boolean;
  /** JSON answers typed `application/json; odata.metadata=minimal; odata.streaming=true; charset=utf-8`. */
  odataContentType?: boolean;
  /** The gateway ends each stream after this many ms (its idle/duration limit; default never). */
  maxStreamMs?: number;
  /** Failures served as application/problem+json. */
  problemJson?: boolean;
  /** The largest audit page; a larger limit is refused 400 (default 100). */
  auditMaxPage?: number;
  /** Audit pages oldest first (still paged by @odata.nextLink). */
  auditOldestFirst?: boolean;
  /** Webhook deliveries in CloudEvents binary mode (ce-* headers, the data alone as body). */
  cloudEventsBinary?: boolean;
  /** A replayed webhook registration leaves the signing key out ("issued exactly once"). */
  redactKeyOnReplay?: boolean;
  /** The delivery log's default page ($top when not sent; default 50), continued by @odata.nextLink. */
  deliveryPageSize?: number;
}

export const TENANTS = { tenant: 'contoso-bistro', otherTenant: 'fabrikam-dining', foreignTenant: 'northwind-traders' };
export const CLIENT_ID = 'yew-integration-client';

/** Version negotiation: `api-version` (query) beside `Service-Version` (header); both optional, unknown: 400. */
function negotiate(ctx: Ctx, required: boolean): boolean {
  const header = ctx.req.headers['service-version'];
  const fromHeader = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
  const fromQuery = ctx.url.searchParams.get('api-version') ?? undefined;
  const asked = fromQuery ?? fromHeader;
  if (fromQuery && fromHeader && fromQuery !== fromHeader) {
    invalid(ctx, { 'api-version': ['The api-version query parameter and the Service-Version header disagree.'] });
    return false;
  }
  if (asked !== undefined && !VERSIONS.includes(asked)) {
    invalid(
      ctx,
      { 'api-version': [`Unsupported version. Supported: ${VERSIONS.join(', ')}.`] },
      'UnsupportedApiVersion',
    );
    return false;
  }
  if (asked === undefined && required) {
    invalid(
      ctx,
      { 'api-version': ['An API version is required: send Service-Version or ?api-version.'] },
      'ApiVersionUnspecified',
    );
    return false;
  }
  ctx.version = asked ?? CURRENT_VERSION;
  return true;
}

export async function startYew(options: YewOptions = {}) {
  setClockOffset(options.clockOffsetMinutes ?? 0);
  const clientSecret = `yew-secret-${randomBytes(18).toString('base64url')}`;
  const auth = createAuth({
    clientId: CLIENT_ID,
    clientSecret,
    tenants: [TENANTS.tenant, TENANTS.otherTenant],
    knownTenants: [TENANTS.foreignTenant],
    tokenTtlSec: options.tokenTtlSec ?? 600,
  });
  const servers: Server[] = [];
  const app: App = {
    auth,
    limiter: createRateLimiter({ limit: options.rateLimit ?? 1000, windowMs: options.windowMs ?? 60_000 }),
    idem: createIdempotencyStore(),
    hub: createStreamHub(options.maxStreamMs ?? 0),
    audit: createAuditLog(options.auditOldestFirst === true),
    webhooks: createWebhooks('urn:yew:ncs', options.cloudEventsBinary === true),
    connections: new Map(),
    activationMs: options.activationMs ?? 250,
    timers: new Set(),
    redactKeyOnReplay: options.redactKeyOnReplay === true,
    deliveryPageSize: options.deliveryPageSize ?? 50,
    auditMaxPage: options.auditMaxPage ?? 100,
  };

  async function handle(req: IncomingMessage, res: ServerResponse, origin: string) {
    const ctx: Ctx = {
      req,
      res,
      url: new URL(req.url ?? '/', origin),
      origin,
      requestId: newRequestId(),
      traceId: String(req.headers['x-correlation-id'] ?? newTraceId()).slice(0, 64),
      version: CURRENT_VERSION,
      headers: {},
      problemJson: options.problemJson === true,
      odataContentType: options.odataContentType === true,
    };
    try {
      const path = ctx.url.pathname;
      if (path === '/connect/token' && req.method === 'POST') return await auth.tokenEndpoint(req, res);
      if (path === '/.well-known/openid-configuration' && req.method === 'GET') {
        return sendJson(ctx, 200, auth.discovery(origin));
      }
      if (path !== '/api/public/v1' && !path.startsWith('/api/public/v1/')) {
        return sendError(ctx, 404, 'not_found', { detail: 'No such path.' });
      }
      if (!negotiate(ctx, options.serviceVersionRequired === true)) return;
      await route(app, ctx);
    } catch {
      sendError(ctx, 500, 'internal', { hint: 'Note the request identifier and inform support.' });
    }
  }

  async function listen(port: number): Promise<string> {
    const server = createServer({ keepAliveTimeout: 5000 });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('request', (req, res) => void handle(req, res, origin));
    return origin;
  }

  const baseUrl = await listen(options.port ?? 0);
  const altBaseUrl = await listen(options.altPort ?? 0);
  return {
    baseUrl,
    altBaseUrl,
    ...TENANTS,
    clientId: CLIENT_ID,
    clientSecret,
    tokenUrl: `${baseUrl}/connect/token`,
    async close() {
      app.webhooks.close();
      for (const t of app.timers) clearTimeout(t);
      app.hub.closeAll();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
