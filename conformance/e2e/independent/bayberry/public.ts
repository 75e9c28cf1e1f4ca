// Public answers: the self-description, the OpenAPI document and its per-version files, and GET /info.

import { type Ctx, notFound, ok, send } from './http.ts';
import { KEY_PATTERN, KEY_TTL_MS } from './idempotency.ts';
import { openapi } from './openapi.ts';
import { ROUTES } from './routes.ts';
import { EVENT_NAMES, VERSION, VERSIONS } from './state.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER } from './webhooks.ts';
import { toYaml } from './yaml.ts';

export function origin(ctx: Ctx): string {
  return `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
}

export function describe(ctx: Ctx): void {
  ok(ctx, {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin(ctx)}/oauth2/token`,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      ttlSeconds: KEY_TTL_MS / 1000,
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
    },
    webhooks: { events: EVENT_NAMES, signatureHeader: SIGNATURE_HEADER, deliveryIdHeader: DELIVERY_HEADER },
    routes: ROUTES.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
  });
}

export function openapiJson(ctx: Ctx): void {
  send(ctx, 200, openapi(origin(ctx), ctx.version));
}

/** /openapi/{version}.json|.yaml: downloadable files, one per published version. */
export function openapiFile(ctx: Ctx, version: string, format: 'json' | 'yaml'): void {
  if (!VERSIONS.includes(version)) throw notFound('version');
  const doc = openapi(origin(ctx), version);
  const disposition = { 'content-disposition': `attachment; filename="bayberry-openapi-${version}.${format}"` };
  if (format === 'json') {
    send(ctx, 200, doc, disposition);
    return;
  }
  ctx.res.writeHead(200, {
    'content-type': 'application/yaml; charset=utf-8',
    'x-request-id': ctx.requestId,
    ...disposition,
  });
  ctx.res.end(toYaml(doc));
}

export function info(ctx: Ctx): void {
  ok(ctx, {
    service: 'network-connections',
    version: ctx.version ?? VERSION,
    client: ctx.clientId,
    tenant: ctx.tenant,
  });
}
