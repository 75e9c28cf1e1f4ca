// The self-description, GET /info, one connection, and the OpenAPI documents (JSON and YAML, current
// and per version). Links are built from the address the caller used.
import { tenantOf } from './auth.ts';
import { onReplica } from './catalog.ts';
import { origin, sendOk } from './http-kit.ts';
import { buildOpenApi, toYaml } from './openapi.ts';
import { ROUTES } from './route-table.ts';
import { type Ctx, CURRENT_VERSION, HttpError, KEY_TTL_MS, VERSIONS } from './types.ts';

const P = '/api/public/v1';

export function describe(ctx: Ctx) {
  const base = origin(ctx);
  sendOk(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${base}/oauth/token`,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      bearerHeader: 'Authorization',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      scope: 'tenant',
      validitySeconds: KEY_TTL_MS / 1000,
      issueEndpoint: `${P}/idempotency-keys`,
    },
    routes: ROUTES.filter(
      (r) => r.since === undefined || ctx.version >= r.since || !ctx.state.options.deliveryLogCurrentOnly,
    ).map((r) => ({
      method: r.method,
      path: r.path,
      purpose: r.purpose,
      auth: r.auth,
    })),
    openapi: {
      json: `${base}${P}/openapi.json`,
      yaml: `${base}${P}/openapi.yaml`,
      downloads: VERSIONS.map((v) => ({
        version: v,
        json: `${base}${P}/openapi/${v}.json`,
        yaml: `${base}${P}/openapi/${v}.yaml`,
      })),
    },
    versions: { current: CURRENT_VERSION, supported: VERSIONS, header: 'Service-Version' },
  });
}

export function info(ctx: Ctx) {
  const token = /^Bearer (.+)$/i.exec(ctx.req.headers.authorization ?? '')?.[1];
  const expiresAt = token === undefined ? undefined : ctx.state.tokens.get(token)?.expiresAt;
  sendOk(ctx, {
    tenant: tenantOf(ctx),
    clientId: ctx.clientId,
    environment: 'sandbox',
    tokenExpiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
  });
}

export function getConnection(ctx: Ctx, id: string) {
  const lag = ctx.state.options.replicaLagMs;
  const found = (ctx.state.connections.get(tenantOf(ctx)) ?? []).find(
    (c) => c.id === id && onReplica(c.createdAt, lag),
  );
  if (!found)
    throw new HttpError(404, 'not_found', 'No such connection.', undefined, 'Compare identifier and tenant header.');
  const { updatedAt: _, ...view } = found;
  sendOk(ctx, view);
}

// /openapi.json and /openapi.yaml follow the caller's Service-Version; /openapi/<version>.<ext> is fixed.
export function serveOpenApi(ctx: Ctx, path: string) {
  const fixed = /\/openapi\/([\d-]+)\.(json|yaml)$/.exec(path);
  const version = fixed?.[1] ?? ctx.version;
  const yaml = (fixed?.[2] ?? (path.endsWith('.yaml') ? 'yaml' : 'json')) === 'yaml';
  const doc = buildOpenApi(version, origin(ctx), ctx.state.options);
  const text = yaml ? toYaml(doc) : JSON.stringify(doc);
  const headers: Record<string, string> = {
    ...ctx.rateHeaders,
    'Content-Type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'public, max-age=300',
    'X-Request-Id': ctx.requestId,
  };
  if (fixed) headers['Content-Disposition'] = `attachment; filename="ncs-openapi-${version}.${yaml ? 'yaml' : 'json'}"`;
  ctx.res.writeHead(200, headers);
  ctx.res.end(text);
}
