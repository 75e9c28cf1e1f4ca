// Public resources of palmetto: the self-description, the OpenAPI files, and GET /info (the sample first call).

import { TOKEN_PATH } from './auth.ts';
import { ApiError, type Ctx, ok, VERSIONS } from './http.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { openapi, toYaml } from './openapi.ts';
import type { Route, Services } from './routes.ts';

export function selfDescription(ctx: Ctx, s: Services, table: Route[]): void {
  ok(ctx, {
    service: 'palmetto-network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: TOKEN_PATH,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      tokenTtlSeconds: s.store.options.tokenTtlSeconds,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', validitySeconds: KEY_TTL_MS / 1000 },
    webhooks: { signatureHeader: 'X-Palmetto-Signature', deliveryHeader: 'X-Palmetto-Delivery' },
    routes: table.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}

export function info(ctx: Ctx): void {
  ok(ctx, {
    service: 'palmetto-network-connections',
    clientId: ctx.clientId,
    tenant: ctx.tenant,
    version: ctx.version,
    environment: 'sandbox',
  });
}

/** openapi.json (the caller's version) or /openapi/<version>.json|.yaml, downloadable. */
export function openapiFile(ctx: Ctx, table: Route[], kind: 'json' | 'file'): void {
  let version = ctx.version;
  let yaml = false;
  if (kind === 'file') {
    const m = /^(\d{4}-\d{2}-\d{2})\.(json|ya?ml)$/.exec(ctx.params.file ?? '');
    if (!m?.[1] || !VERSIONS.includes(m[1])) throw new ApiError(404, 'not_found', 'HTTP 404 Not Found');
    version = m[1];
    yaml = m[2] !== 'json';
  }
  const doc = openapi(table, version);
  const headers: Record<string, string> = { 'x-request-id': ctx.requestId };
  if (kind === 'file')
    headers['content-disposition'] = `attachment; filename="ncs-openapi-${version}.${yaml ? 'yaml' : 'json'}"`;
  ctx.res.writeHead(200, { 'content-type': yaml ? 'application/yaml' : 'application/json', ...headers });
  ctx.res.end(yaml ? `${toYaml(doc).slice(1)}\n` : JSON.stringify(doc));
}
