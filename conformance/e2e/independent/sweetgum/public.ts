// The public answers: the self-description and the OpenAPI document (live, and as per-version files).
import { ApiError, type Ctx, ok, sendJson } from './http.ts';
import { openapiDocument } from './openapi.ts';
import { routesOf } from './routes.ts';
import { VERSIONS } from './state.ts';
import { EVENT_NAMES } from './webhooks.ts';
import { toYaml } from './yaml.ts';

const P = '/api/public/v1';

export function selfDescription(ctx: Ctx, tokenUrl: string, shelfPaths: boolean): void {
  const path = (p: string) => `${P}${shelfPaths ? p.replace(/\{(\w+)\}/g, '<$1>') : p}`;
  ok(ctx, {
    service: 'sweetgum',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: tokenUrl,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validity: 'PT24H',
      requiredOn: routesOf(ctx.version)
        .filter((r) => r.key)
        .map((r) => `${r.method} ${P}${r.path}`),
    },
    webhooks: { events: EVENT_NAMES, signatureHeader: 'X-Sweetgum-Signature', deliveryHeader: 'X-Sweetgum-Delivery' },
    versions: VERSIONS,
    routes: routesOf(ctx.version).map((r) => ({
      method: r.method,
      path: path(r.path),
      purpose: r.purpose,
      auth: r.auth,
    })),
  });
}

export function openapi(ctx: Ctx, tokenUrl: string): void {
  sendJson(ctx, 200, openapiDocument(ctx.version, tokenUrl));
}

/** GET /openapi/{version}.{json|yaml}: a download, named as the file it is. */
export function openapiFile(ctx: Ctx, tokenUrl: string, file: string, ext: 'json' | 'yaml'): void {
  if (!VERSIONS.includes(file)) throw new ApiError(404, 'not_found', `No document for version ${file}`);
  const doc = openapiDocument(file, tokenUrl);
  const disposition = { 'content-disposition': `attachment; filename="sweetgum-openapi-${file}.${ext}"` };
  if (ext === 'json') {
    sendJson(ctx, 200, doc, disposition);
    return;
  }
  ctx.res.writeHead(200, {
    ...disposition,
    'content-type': 'application/yaml; charset=utf-8',
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(toYaml(doc));
}
