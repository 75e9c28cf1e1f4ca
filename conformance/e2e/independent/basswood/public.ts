// The public documents: the self-description (read from the route table, so it lists exactly what is
// served) and the OpenAPI document, as openapi.json and as per-version JSON and YAML downloads.
import type { Ctx } from './http.ts';
import { openapiDocument, openapiYaml } from './openapi.ts';
import type { Route } from './routes.ts';
import { API, type Rec, VERSION, VERSIONS, WEBHOOK_EVENTS } from './state.ts';

export function selfDescription(ctx: Ctx, routes: Route[]): Rec {
  return {
    service: 'basswood',
    surface: 'public',
    version: VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      grant_types: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}/oauth2/token`,
      token_endpoint_auth_methods:
        ctx.store.options.tokenAuth === 'post' ? ['client_secret_post'] : ['client_secret_basic', 'client_secret_post'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', retention_hours: 24 },
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: 'X-Basswood-Signature' },
    routes: routes.map((r) => ({ method: r.method, path: `${API}${r.path}`, purpose: r.purpose, auth: r.auth })),
  };
}

/** openapi.json (inline) or a per-version download (`attachment`), JSON or YAML. */
export function sendDocument(ctx: Ctx, routes: Route[], version: string, file?: 'json' | 'yaml'): undefined {
  const doc = openapiDocument(routes, version);
  const headers: Record<string, string> = {
    'content-type': file === 'yaml' ? 'application/yaml' : 'application/json',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
  };
  if (file) headers['content-disposition'] = `attachment; filename="basswood-${version}.${file}"`;
  ctx.res.writeHead(200, headers);
  ctx.res.end(file === 'yaml' ? openapiYaml(doc) : JSON.stringify(doc));
  return undefined;
}
