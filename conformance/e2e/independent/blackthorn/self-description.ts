// Handlers that describe the service itself: the self-description, /info, the per-version OpenAPI downloads
// and the idempotency-key issuer (a plain Malli-validated handler).
import { ApiError, type Ctx, ok, parseJson } from './http.ts';
import { issueKey } from './idempotency.ts';
import { openapiJson, openapiYaml } from './openapi-files.ts';
import { ROUTES } from './routes.ts';
import { type Store, VERSIONS } from './state.ts';
import { validate } from './validate.ts';

const P = '/api/public/v1';

export function download(ctx: Ctx, kind: 'json' | 'yaml') {
  const version = ctx.params.version ?? '';
  if (!(VERSIONS as readonly string[]).includes(version))
    throw new ApiError(404, 'not_found', 'No document for this version');
  if (kind === 'json') openapiJson(ctx, version);
  else openapiYaml(ctx, version);
}

export function keys(_store: Store, ctx: Ctx) {
  const body = parseJson(ctx);
  validate({ operation: { kind: 'string', min: 2, max: 80 } }, body);
  issueKey(ctx, body);
}
export function describe(_store: Store, ctx: Ctx) {
  ok(ctx, {
    service: 'blackthorn network connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      'token-url': `${ctx.url.origin}/oauth2/token`,
      header: 'Authorization: Bearer',
      'tenant-header': 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      'ttl-hours': 24,
      'key-endpoint': `${P}/idempotency-keys`,
    },
    versions: [...VERSIONS],
    routes: ROUTES.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
  });
}

export function info(store: Store, ctx: Ctx) {
  ok(ctx, {
    'client-id': ctx.clientId,
    tenant: ctx.tenant,
    'released-tenants': [...store.released],
    environment: 'sandbox',
    version: ctx.version,
  });
}
