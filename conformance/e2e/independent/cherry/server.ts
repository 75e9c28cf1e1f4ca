// cherry: an independent deployment of the interface, Elixir/Phoenix + Ash style, on plain node:http.
// Two loopback listeners (main and alternate base URL) share one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authServerMetadata, createRateLimiter, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, type Conn, CURRENT_VERSION, fail, newRequestId, ok, readBody, send, VERSIONS } from './conn.ts';
import { openapiDocument } from './openapi.ts';
import { toYaml } from './openapi-schemas.ts';
import type { Ctx } from './operations.ts';
import { match, ROUTES, type RouterOptions, runAuthenticated } from './routes.ts';
import { createStore } from './store.ts';
import { closeHub, createHub, openStream } from './stream.ts';
import { createQueue, EVENT_NAMES, SIGNATURE_HEADER, startWorker, stopWorker } from './webhooks.ts';

export interface CherryOptions {
  port?: number;
  altPort?: number;
  /** Calls per window per access and environment (Hammer fixed window). */
  rateLimit?: number;
  windowMs?: number;
  tokenTtlSeconds?: number;
  activationMs?: number;
  keepAliveMs?: number;
  redactKeyOnReplay?: boolean;
  /** Default page[size] of the audit and delivery logs (keyset pages, links.next). */
  pageSize?: number;
  clientId?: string;
  clientSecret?: string;
}

export interface Cherry {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
}

function selfDescription(origin: string): Record<string, unknown> {
  return {
    service: 'network-connections',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      tokenEndpointAuthMethods: ['client_secret_basic'],
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttlSeconds: 86400,
      scope: 'access, tenant and key',
    },
    webhooks: { events: EVENT_NAMES, signatureHeader: SIGNATURE_HEADER },
    versions: VERSIONS,
    routes: ROUTES.map((r) => ({
      method: r.method,
      path: r.path.replace(/:(\w+)/g, '{$1}'),
      purpose: r.purpose,
      auth: r.auth,
    })),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: Ctx,
  rl: ReturnType<typeof createRateLimiter>,
  opts: RouterOptions & { tokenTtl: number },
): Promise<void> {
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const origin = `http://${host}`;
  const requestId = newRequestId();
  const conn: Conn = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname,
    query: url.searchParams,
    origin,
    requestId,
    version: CURRENT_VERSION,
    headers: { 'x-request-id': requestId },
  };
  try {
    conn.rawBody = await readBody(req);
    if (conn.path === TOKEN_PATH && conn.method === 'POST')
      return tokenEndpoint(ctx.store, req, res, conn.rawBody, opts.tokenTtl);
    if (conn.path.startsWith('/.well-known/oauth-authorization-server') && conn.method === 'GET') {
      return send(conn, 200, authServerMetadata(origin));
    }
    const asked = req.headers['service-version'];
    if (typeof asked === 'string') {
      if (!VERSIONS.includes(asked)) {
        throw new ApiError('invalid_request', `unknown Service-Version ${asked}`, {
          hint: `use one of ${VERSIONS.join(', ')}`,
        });
      }
      conn.version = asked;
    }
    const m = match(conn.method, conn.path);
    if (m === undefined || m === 'method') {
      throw new ApiError(
        'not_found',
        m === 'method' ? `no route for ${conn.method} ${conn.path}` : `no route for ${conn.path}`,
      );
    }
    const { route, params } = m;
    if (route.auth) return runAuthenticated(conn, ctx, rl, route, params, opts);
    if (route.path.endsWith('/stream')) return openStream(ctx.hub, conn);
    const doc = openapiDocument(`${origin}${TOKEN_PATH}`);
    if (route.path.endsWith('/openapi.json')) return send(conn, 200, doc);
    if (route.path.endsWith('/:file')) {
      const f = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(params.file ?? '');
      if (!f || !VERSIONS.includes(f[1] ?? '')) throw new ApiError('not_found', `no description ${params.file}`);
      const asFile = { ...doc, info: { ...(doc.info as object), version: f[1] } };
      conn.headers['content-disposition'] = `attachment; filename="cherry-openapi-${params.file}"`;
      return f[2] === 'json'
        ? send(conn, 200, asFile)
        : send(conn, 200, toYaml(asFile), 'application/yaml; charset=utf-8');
    }
    return ok(conn, selfDescription(origin));
  } catch (e) {
    if (e instanceof ApiError) return fail(conn, e);
    // Only the request id goes out; the cause stays in the server's own log.
    fail(
      conn,
      new ApiError('internal', 'an internal error occurred', { hint: `quote request id ${requestId} to support` }),
    );
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startCherry(options: CherryOptions = {}): Promise<Cherry> {
  const clientId = options.clientId ?? 'cherry-integrator';
  const clientSecret = options.clientSecret ?? 'cherry-sandbox-secret-7f3a91c2d45e6b08';
  const ctx: Ctx = {
    store: createStore(clientId, clientSecret),
    idem: new Map(),
    audit: new Map(),
    hub: createHub(options.keepAliveMs ?? 15_000),
    queue: createQueue(),
    activationMs: options.activationMs ?? 300,
    pageSize: options.pageSize ?? 25,
    timers: new Set(),
  };
  const rl = createRateLimiter(options.rateLimit ?? 1000, options.windowMs ?? 60_000);
  const opts = {
    redactKeyOnReplay: options.redactKeyOnReplay ?? false,
    environment: 'sandbox',
    tokenTtl: options.tokenTtlSeconds ?? 600,
  };
  startWorker(ctx.queue);
  const app = (req: IncomingMessage, res: ServerResponse) => void handle(req, res, ctx, rl, opts);
  const main = createServer({ keepAliveTimeout: 60_000 }, app);
  const alt = createServer({ keepAliveTimeout: 60_000 }, app);
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'cherry-orchard',
    otherTenant: 'cherry-grove',
    foreignTenant: 'cherry-blossom',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      for (const t of ctx.timers) clearTimeout(t);
      closeHub(ctx.hub);
      await stopWorker(ctx.queue);
      for (const s of [main, alt]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}
