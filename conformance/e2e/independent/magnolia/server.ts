// magnolia: an independent deployment of interface.md (Hasura REST + Auth0 M2M + a Hookdeck-style
// gateway). Two loopback ports share one state; everything under /api/public/v1 goes through `serve`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { type Client, createAuth, discovery } from './auth.ts';
import { Gate } from './gate.ts';
import { type Deps, handlers } from './handlers.ts';
import { openapi, toYaml } from './openapi.ts';
import { BASE, match, ROUTES } from './routes.ts';
import { Store } from './state.ts';
import { openStream } from './stream.ts';
import { ApiError, CURRENT_VERSION, PUBLISHED_VERSIONS, Reply } from './util.ts';
import { Gateway } from './webhooks.ts';

export interface MagnoliaOptions {
  port?: number;
  altPort?: number;
  /** Calls per window per client, tenant and environment (default 1000 per 60 s). */
  rateLimit?: number;
  windowMs?: number;
  /** Token lifetime in seconds (Auth0's default for M2M: 86400). */
  tokenTtl?: number;
  /** Step of the linear retry schedule: attempt n+1 waits n x step (default 60 s). */
  retryStepMs?: number;
  activationMs?: number;
  auditOldestFirst?: boolean;
  /** An unknown Service-Version is refused (400) instead of answered as the current version. */
  strictVersion?: boolean;
  /** The token endpoint refuses a request without `audience` (an Auth0 tenant with no default audience). */
  requireAudience?: boolean;
  /** Hasura's own event-trigger shape on the stream and in webhook bodies (the row under data.new). */
  hasuraPayloads?: boolean;
  /** A replay repeats the original call's request id (meta.requestId and X-Request-Id): "the same response again". */
  replayOriginalRequestId?: boolean;
}

export interface Magnolia {
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

const CLIENT: Client = {
  id: 'magnolia-m2m-ci',
  secret: 'mgn-sandbox-5e1f0c7a9b3d4e26a8c1',
  tenants: ['magnolia-harbour', 'magnolia-alpine'],
};

const [TENANT, OTHER, FOREIGN] = ['magnolia-harbour', 'magnolia-alpine', 'magnolia-lakeside'] as const;
const TENANTS: string[] = [TENANT, OTHER, FOREIGN];

export async function startMagnolia(o: MagnoliaOptions = {}): Promise<Magnolia> {
  const store = new Store(o.activationMs ?? 400, o.hasuraPayloads ?? false);
  const gateway = new Gateway({
    retryStepMs: o.retryStepMs ?? 60_000,
    maxAttempts: 5,
    hasuraPayloads: o.hasuraPayloads ?? false,
  });
  store.hooks.push((tenant, topic, c) => gateway.onChange(tenant, topic, c));
  const deps: Deps = {
    store,
    gateway,
    audit: new AuditLog(),
    keyTtlMs: 24 * 3600_000,
    auditOldestFirst: o.auditOldestFirst ?? false,
  };
  const auth = createAuth([CLIENT], o.tokenTtl ?? 86_400, o.requireAudience ?? false);
  const gate = new Gate(
    auth,
    TENANTS,
    o.rateLimit ?? 1000,
    o.windowMs ?? 60_000,
    deps,
    o.replayOriginalRequestId ?? false,
  );

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    if (url.pathname === '/oauth/token' && req.method === 'POST') return auth.tokenHandler(req, res, origin);
    if (
      url.pathname === '/.well-known/openid-configuration' ||
      url.pathname === '/.well-known/oauth-authorization-server'
    )
      return raw(res, 200, discovery(origin));
    if (url.pathname === '/.well-known/jwks.json') return raw(res, 200, auth.jwks());
    const asked = req.headers['service-version'];
    let version = CURRENT_VERSION;
    if (typeof asked === 'string' && PUBLISHED_VERSIONS.includes(asked.trim())) version = asked.trim();
    const reply = new Reply(res, version);
    try {
      if (typeof asked === 'string' && !PUBLISHED_VERSIONS.includes(asked.trim()) && o.strictVersion)
        throw new ApiError(
          400,
          'invalid_request',
          `unknown Service-Version; published: ${PUBLISHED_VERSIONS.join(', ')}`,
          'at $.headers.service-version',
        );
      if (url.pathname !== BASE && !url.pathname.startsWith(`${BASE}/`))
        throw new ApiError(404, 'not_found', 'no such endpoint');
      const rel = url.pathname.slice(BASE.length).replace(/\/$/, '');
      const { route, params } = match(req.method ?? 'GET', rel);
      if (!route) throw new ApiError(404, 'not_found', 'no such endpoint', `${req.method} ${url.pathname}`);
      if (route.auth === 'public') return publicRoute(route.operationId, req, res, reply, url, origin, params);
      await gate.run(route, req, reply, url.searchParams, params, (h) => handlers[h] ?? infoHandler);
    } catch (e) {
      const err =
        e instanceof ApiError
          ? e
          : new ApiError(500, 'internal', 'the service failed; quote the request id to support');
      reply.fail(err.status, err.code, err.message, err.detail, err.hint);
    }
  }

  const infoHandler = (): unknown => ({
    environment: 'sandbox',
    purpose: 'conformance and partner integration tests',
    owner: 'platform-integrations@magnolia.example',
  });

  function publicRoute(
    op: string,
    req: IncomingMessage,
    res: ServerResponse,
    reply: Reply,
    url: URL,
    origin: string,
    params: Record<string, string>,
  ): void {
    if (op === 'describe') reply.ok(describe(origin));
    else if (op === 'openapiJson') raw(res, 200, openapi(origin), reply);
    else if (op === 'auditKeys') raw(res, 200, deps.audit.jwks(), reply);
    else if (op === 'stream')
      openStream(req, res, store, url.searchParams, {
        'x-request-id': reply.requestId,
        'service-version': reply.version,
      });
    else versionFile(op, res, reply, origin, params.version ?? '');
  }

  /** The per-version downloads of the description: JSON, and YAML of the same document. */
  function versionFile(op: string, res: ServerResponse, reply: Reply, origin: string, v: string): void {
    if (!PUBLISHED_VERSIONS.includes(v)) throw new ApiError(404, 'not_found', 'no description of that version');
    // Each file names its own version (the kit's openapi.yaml-matches-json found 2026-06-12 served as 2026-07-01).
    const current = openapi(origin) as { info?: Record<string, unknown> };
    const doc = { ...current, info: { ...current.info, version: v } };
    if (op === 'openapiJsonFile') {
      raw(res, 200, doc, reply);
      return;
    }
    const text = `# magnolia OpenAPI ${v}${toYaml(doc)}\n`;
    res.writeHead(200, {
      'content-type': 'application/yaml; charset=utf-8',
      'content-disposition': `attachment; filename="openapi-${v}.yaml"`,
    });
    res.end(text);
  }

  function describe(origin: string): unknown {
    return {
      service: 'network-connections',
      surface: 'public',
      version: CURRENT_VERSION,
      deployment: 'magnolia',
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenEndpoint: `${origin}/oauth/token`,
        audience: 'https://api.magnolia.example/ncs',
        metadata: `${origin}/.well-known/openid-configuration`,
        tenantHeader: 'x-service-tenant',
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        validity: 'PT24H',
        scope: 'client, tenant and key',
      },
      webhooks: {
        events: ['connection.created', 'connection.activated', 'order.created', 'order.paid'],
        signatureHeader: 'X-Gateway-Signature',
      },
      documents: { json: `${BASE}/openapi/${CURRENT_VERSION}.json`, yaml: `${BASE}/openapi/${CURRENT_VERSION}.yaml` },
      routes: ROUTES.map((r) => ({
        method: r.method,
        path: `${BASE}${r.path}`,
        purpose: r.purpose,
        auth: r.auth !== 'public',
      })),
    };
  }

  function raw(res: ServerResponse, status: number, body: unknown, reply?: Reply): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      ...(reply ? { 'x-request-id': reply.requestId } : {}),
    });
    res.end(text);
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  const servers: Server[] = [createServer(handle), createServer(handle)];
  const ports = [o.port ?? 0, o.altPort ?? 0];
  await Promise.all(servers.map((s, i) => new Promise<void>((ok) => s.listen(ports[i], '127.0.0.1', ok))));
  const [main = '', alt = ''] = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  return {
    baseUrl: main,
    altBaseUrl: alt,
    tenant: TENANT,
    otherTenant: OTHER,
    foreignTenant: FOREIGN,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    tokenUrl: `${main}/oauth/token`,
    async close() {
      store.close();
      gateway.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((ok) => {
              s.closeAllConnections();
              s.close(() => ok());
            }),
        ),
      );
    },
  };
}
