// The public documents: the self-description, /info and the OpenAPI files per version.
import { TOKEN_PATH } from './auth.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER } from './deliveries.ts';
import { BASE, type Ctx, notFound, type Rec, VERSIONS } from './http.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { openapiDocument } from './openapi.ts';
import { ROUTES } from './routes.ts';
import { EVENT_NAMES } from './webhooks.ts';
import { toYaml } from './yaml.ts';

export const origin = (ctx: Ctx) => `http://${ctx.req.headers.host ?? '127.0.0.1'}`;

export function selfDescription(ctx: Ctx): Rec {
  return {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      scheme: 'Bearer',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin(ctx)}${TOKEN_PATH}`,
      metadata: `${origin(ctx)}/.well-known/oauth-authorization-server`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validityHours: 24,
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${BASE}${r.path}`),
    },
    webhooks: { events: EVENT_NAMES, signatureHeader: SIGNATURE_HEADER, deliveryIdHeader: DELIVERY_HEADER },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${BASE}${r.path}`, purpose: r.purpose, auth: r.auth })),
  };
}

export function info(ctx: Ctx): Rec {
  return {
    service: 'network-connections',
    version: ctx.version,
    versions: VERSIONS,
    environment: 'sandbox',
    runtime: 'helidon-se',
    tenant: ctx.tenant,
  };
}

/** GET /openapi.json (the current version) or /openapi/{version}.json|.yaml (a download). */
export function openapiFile(ctx: Ctx, version: string, format: 'json' | 'yaml', download: boolean): void {
  if (!VERSIONS.includes(version)) throw notFound('No document for this version');
  const doc = openapiDocument(version, `${origin(ctx)}${TOKEN_PATH}`);
  const headers: Record<string, string> = { ...ctx.headers };
  if (download) headers['content-disposition'] = `attachment; filename="ncs-openapi-${version}.${format}"`;
  if (format === 'yaml') {
    ctx.res.writeHead(200, { ...headers, 'content-type': 'application/yaml' });
    ctx.res.end(`${toYaml(doc)}\n`);
    return;
  }
  ctx.res.writeHead(200, { ...headers, 'content-type': 'application/json' });
  ctx.res.end(JSON.stringify(doc));
}
