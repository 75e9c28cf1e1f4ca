// sequoia: the interface as a Kotlin http4k team would serve it, on plain node:http. One state, two
// loopback ports (main and alternate base address); filters in http4k order: request id, version,
// bearer auth, tenant lens, rate limiter, then the routes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeApi } from './api-routes.ts';
import { createAuditJournal } from './audit-journal.ts';
import type { Domain } from './domain.ts';
import { CURRENT_VERSION, type Exchange, fail, header, newExchange, ok, Refusal, VERSIONS } from './http-kit.ts';
import { createIdempotencyStore } from './idempotency.ts';
import { createOAuthServer } from './oauth.ts';
import { buildOpenApi } from './openapi.ts';
import { createRateLimiterRegistry } from './rate-limiter.ts';
import { createStatusStream } from './status-stream.ts';
import { createWebhookOutbox } from './webhook-outbox.ts';

export interface SequoiaOptions {
  limitForPeriod?: number;
  limitRefreshPeriodMs?: number;
  activationMs?: number;
  outboxPollMs?: number;
  backoffBaseMs?: number;
  tokenTtlSeconds?: number;
  /** Other legal choices (README): how a missing tenant header is refused. */
  tenantMissing?: 'invalid_request' | 'unauthorized' | 'forbidden';
  /** Service-Version: 'optional' (default), 'required' (missing: 400), 'strict' (unknown value: 400). */
  serviceVersion?: 'optional' | 'required' | 'strict';
  /** Refuse body fields the schema does not list (default: ignored, as Jackson lenses do). */
  strictBodies?: boolean;
  /** Audit log oldest first, paged by a Link header (default newest first with nextCursor). */
  auditOldestFirst?: boolean;
  /** A replayed webhook registration shows the signing key redacted (it is issued once). */
  redactSecretOnReplay?: boolean;
  /** End every stream after this many ms (0: never). */
  streamRotateMs?: number;
  /** The audit journal also records refused modifying calls (a security trail: operation, code, key). */
  auditRefusals?: boolean;
  /** H2 identity numbers as ids (connections, deliveries) instead of UUIDs and prefixed ids. */
  numericIds?: boolean;
}

const TENANTS = { main: 'sequoia-grove', other: 'sequoia-ridge', foreign: 'sequoia-frost' };
const PREFIX = '/api/public/v1';

export async function startSequoia(options: SequoiaOptions = {}) {
  const oauth = createOAuthServer([TENANTS.main, TENANTS.other], options.tokenTtlSeconds ?? 600);
  const known = new Set(Object.values(TENANTS));
  const permit = createRateLimiterRegistry({
    limitForPeriod: options.limitForPeriod ?? 600,
    limitRefreshPeriodMs: options.limitRefreshPeriodMs ?? 10_000,
  });
  let identity = 1000;
  const d: Domain = {
    idempotency: createIdempotencyStore(),
    audit: createAuditJournal(),
    stream: createStatusStream(15_000, options.streamRotateMs ?? 0),
    outbox: createWebhookOutbox({
      pollMs: options.outboxPollMs ?? 100,
      backoffBaseMs: options.backoffBaseMs ?? 1000,
      maxAttempts: 5,
      numericIds: options.numericIds ?? false,
    }),
    connections: new Map(),
    activationMs: options.activationMs ?? 300,
    timers: new Set(),
    strictBodies: options.strictBodies ?? false,
    auditOldestFirst: options.auditOldestFirst ?? false,
    redactSecretOnReplay: options.redactSecretOnReplay ?? false,
    numericIds: options.numericIds ?? false,
    nextId: () => String(++identity),
  };
  const documents = new Map(VERSIONS.map((v) => [v, JSON.stringify(buildOpenApi(v))]));
  const openapi = JSON.stringify(buildOpenApi());

  const selfDescription = (ex: Exchange) => {
    const doc = JSON.parse(openapi) as {
      paths: Record<string, Record<string, { summary: string; security: unknown[] }>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([m, o]) => ({
        method: m.toUpperCase(),
        path,
        purpose: o.summary,
        auth: o.security.length > 0,
      })),
    );
    ok(ex, {
      service: 'network-connections',
      surface: 'public',
      version: CURRENT_VERSION,
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenEndpoint: oauth.tokenPath,
        metadata: '/.well-known/oauth-authorization-server',
        tenantHeader: 'x-service-tenant',
      },
      description: {
        json: `${PREFIX}/openapi.json`,
        yaml: `${PREFIX}/openapi.yaml`,
        perVersion: VERSIONS.flatMap((v) => [`${PREFIX}/openapi/${v}.json`, `${PREFIX}/openapi/${v}.yaml`]),
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        validityHours: 24,
        scope: 'tenant',
      },
      webhooks: {
        events: ['connection.requested', 'connection.active', 'order.created', 'order.paid'],
        signatureHeader: 'Sequoia-Signature',
      },
      routes,
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse, origin: () => string) {
    const ex = newExchange(req, res);
    const path = ex.url.pathname;
    const method = req.method ?? 'GET';
    try {
      const sv = header(req, 'service-version');
      if (options.serviceVersion === 'required' && sv === undefined && path.startsWith(PREFIX)) {
        throw new Refusal(
          'invalid_request',
          'Lens failed: header Service-Version is required',
          `Service-Version: one of ${VERSIONS.join(', ')}`,
        );
      }
      if (
        options.serviceVersion &&
        options.serviceVersion !== 'optional' &&
        sv !== undefined &&
        !VERSIONS.includes(sv)
      ) {
        throw new Refusal(
          'invalid_request',
          'Lens failed: unknown Service-Version',
          `Service-Version: one of ${VERSIONS.join(', ')}`,
        );
      }
      if (path === oauth.tokenPath) return await oauth.handleToken(req, res);
      if (path === '/.well-known/oauth-authorization-server') return oauth.handleMetadata(res, origin());
      if (method === 'GET' && path === PREFIX) return selfDescription(ex);
      const doc = /^\/api\/public\/v1\/openapi(?:\/(2026-07-01|2026-06-12))?\.(json|yaml)$/.exec(path);
      if (method === 'GET' && doc) {
        // A file per version; the unversioned one follows Service-Version. JSON text is valid YAML 1.2.
        const yaml = doc[2] === 'yaml';
        res.writeHead(200, {
          'content-type': yaml ? 'application/yaml' : 'application/json; charset=utf-8',
          'x-request-id': ex.requestId,
        });
        return res.end(documents.get(doc[1] ?? ex.version) ?? openapi);
      }
      if (method === 'GET' && path === `${PREFIX}/stream`) return d.stream.serve(ex);
      if (!path.startsWith(`${PREFIX}/`)) throw new Refusal('not_found', 'no such route');
      const access = oauth.lookup(header(req, 'authorization'));
      if (!access) throw new Refusal('unauthorized', 'a valid bearer token is required', 'request a new access token');
      const tenant = header(req, 'x-service-tenant');
      const p = permit(`${access.clientId}|${tenant ?? ''}`);
      ex.headers['X-RateLimit-Limit'] = String(p.limit);
      ex.headers['X-RateLimit-Remaining'] = String(p.remaining);
      if (!p.granted) {
        ex.headers['Retry-After'] = String(p.retryAfter);
        throw new Refusal('rate_limited', 'rate limit of this access exceeded', `retry after ${p.retryAfter} s`);
      }
      if (!tenant)
        throw new Refusal(
          options.tenantMissing ?? 'invalid_request',
          'Lens failed: header x-service-tenant is required',
          'x-service-tenant: missing',
        );
      if (!access.tenants.includes(tenant)) {
        throw new Refusal(
          'forbidden',
          'this access is not released for the tenant',
          known.has(tenant) ? 'tenant not released' : undefined,
        );
      }
      const call = { ex, tenant, clientId: access.clientId, tokenExpiresAt: access.expiresAt };
      if (!(await routeApi(d, call, method, path.slice(PREFIX.length))))
        throw new Refusal('not_found', 'no such route');
    } catch (e) {
      if (res.headersSent) return void res.destroy();
      const r = e instanceof Refusal ? e : new Refusal('internal', 'internal error');
      const tenant = header(req, 'x-service-tenant');
      if (options.auditRefusals && method !== 'GET' && tenant && r.code !== 'unauthorized' && r.code !== 'forbidden') {
        const key = header(req, 'idempotency-key');
        d.audit.append(tenant, {
          action: `refused.${r.code}`,
          resourceType: 'request',
          resourceId: `${method} ${path}`,
          clientId: oauth.lookup(header(req, 'authorization'))?.clientId ?? 'unknown',
          ...(key && /^[A-Za-z0-9._:-]{8,128}$/.test(key) ? { idempotencyKey: key } : {}),
        });
      }
      fail(ex, r);
    }
  }

  const servers: Server[] = [];
  const listen = async () => {
    const s = createServer({ keepAliveTimeout: 5000 });
    const origin = () => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    s.on('request', (req, res) => void handle(req, res, origin));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
    return origin();
  };
  const baseUrl = await listen();
  const altBaseUrl = await listen();
  return {
    baseUrl,
    altBaseUrl,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    tokenUrl: `${baseUrl}${oauth.tokenPath}`,
    async close() {
      d.outbox.close();
      d.stream.closeAll();
      for (const t of d.timers) clearTimeout(t);
      await Promise.all(
        servers.map(
          (s) =>
            new Promise((r) => {
              s.closeAllConnections();
              s.close(r);
            }),
        ),
      );
    },
  };
}
