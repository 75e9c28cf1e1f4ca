// The public locations (no access_by_lua): the self-description, the OpenAPI documents and the status stream.
import { authenticate } from './auth.ts';
import { ApiError, type Ctx, CURRENT_VERSION, ok, PREFIX, type Rec, VERSIONS } from './http.ts';
import { openapiDocument } from './openapi.ts';
import { ROUTES } from './route-table.ts';
import type { Deps } from './routes.ts';
import { EVENT_NAMES, SIGNATURE_HEADER } from './webhooks.ts';
import { yamlDocument } from './yaml.ts';

function selfDescription(): Rec {
  return {
    service: 'sourwood network connections',
    surface: 'public',
    version: CURRENT_VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: '/oauth2/token',
      tokenFormat: 'JWT (HS256)',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttlSeconds: 86400 },
    webhooks: { events: EVENT_NAMES, signatureHeader: SIGNATURE_HEADER },
    routes: ROUTES.map(([method, path, purpose, auth]) => ({ method, path: `${PREFIX}${path}`, purpose, auth })),
  };
}

/** Public routes; true when answered. */
export function publicRoute(d: Deps, ctx: Ctx, path: string): boolean {
  const method = ctx.req.method;
  if (method !== 'GET') return false;
  if (path === '' || path === '/') {
    ok(ctx, selfDescription());
    return true;
  }
  if (path === '/openapi.json') {
    sendDoc(ctx, JSON.stringify(openapiDocument()), 'application/json');
    return true;
  }
  const file = /^\/openapi\/([^/]+)\.(json|yaml)$/.exec(path);
  if (file?.[1]) {
    // A public location: an unknown version is a 404 here, never a 401.
    if (!VERSIONS.includes(file[1])) throw new ApiError(404, 'not_found', 'no OpenAPI document for that version');
    const doc = openapiDocument(file[1]);
    if (file[2] === 'json') sendDoc(ctx, JSON.stringify(doc, null, 2), 'application/json', file[0]);
    else sendDoc(ctx, yamlDocument(doc), 'application/yaml', file[0]);
    return true;
  }
  if (path === '/stream') {
    let tenant: string | undefined;
    // With a valid access the caller reads its tenant's stream; anyone else the public one.
    if (ctx.req.headers.authorization) {
      try {
        tenant = authenticate(ctx).tenant;
      } catch {
        tenant = undefined;
      }
    }
    delete ctx.headers['www-authenticate'];
    d.bus.open(ctx, tenant);
    return true;
  }
  return false;
}

function sendDoc(ctx: Ctx, text: string, type: string, file?: string): void {
  const headers: Rec = { ...ctx.headers, 'content-type': `${type}; charset=utf-8`, 'x-request-id': ctx.requestId };
  if (file) headers['content-disposition'] = `attachment; filename="sourwood-openapi-${file.slice(9)}"`;
  ctx.res.writeHead(200, headers);
  ctx.res.end(text);
}
