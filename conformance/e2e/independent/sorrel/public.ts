// The self-description, GET /info and the OpenAPI files (the team's `MetaController`).
import { TOKEN_PATH } from './auth.ts';
import { type Ctx, ok, send } from './http.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { openapi, yaml } from './openapi.ts';
import { ROUTES } from './routes.ts';
import { type Store, VERSION, VERSIONS, WEBHOOK_EVENTS } from './state.ts';

function origin(ctx: Ctx): string {
  return `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
}

export function selfDescription(_store: Store, ctx: Ctx): void {
  ok(ctx, {
    service: 'network-connections',
    surface: 'public',
    version: VERSION,
    versions: [...VERSIONS],
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenUrl: `${origin(ctx)}${TOKEN_PATH}`,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      header: 'Authorization: Bearer <token>',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: ['POST /api/public/v1/connections', 'POST /api/public/v1/webhooks'],
      ttlHours: KEY_TTL_MS / 3_600_000,
    },
    webhooks: {
      events: [...WEBHOOK_EVENTS],
      signatureHeader: 'X-Sorrel-Signature',
      deliveryIdHeader: 'X-Sorrel-Delivery',
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}

export function info(store: Store, ctx: Ctx): void {
  const grant = [...store.tokens.values()].find((g) => g.clientId === ctx.clientId);
  ok(ctx, {
    clientId: ctx.clientId,
    tenant: ctx.tenant,
    environment: 'sandbox',
    version: VERSION,
    tokenExpiresAt: grant ? new Date(grant.expiresAt).toISOString() : undefined,
  });
}

export function openapiJson(_store: Store, ctx: Ctx): void {
  send(ctx, 200, openapi(origin(ctx)));
}

/** /openapi/<version>.<json|yaml>: the downloadable files per version. */
export function openapiFile(ctx: Ctx, version: string, format: string): void {
  const doc = openapi(origin(ctx), version);
  ctx.headers['content-disposition'] = `attachment; filename="ncs-openapi-${version}.${format}"`;
  if (format === 'json') {
    send(ctx, 200, doc);
    return;
  }
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'application/yaml; charset=utf-8',
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(`${yaml(doc).replace(/^\n/, '')}\n`);
}
