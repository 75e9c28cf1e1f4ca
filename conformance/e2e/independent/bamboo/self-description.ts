// GET /api/public/v1: the self-description (service, version, authentication, idempotency, routes), with
// what bamboo adds: the published versions, webhook headers and event names, the description files.
// GET /info (the sample first call): who is calling, for which tenant, in which environment.
import { EVENT_TYPES } from './deliveries.ts';
import type { Ctx } from './pipeline.ts';
import { ROUTES } from './routes.ts';
import { type Call, CURRENT_VERSION, ok, timestamp, VERSIONS } from './wire.ts';

const P = '/api/public/v1';

export function describe(call: Call, base: string, tokenUrl: string): void {
  ok(call, {
    service: 'bamboo network connections',
    surface: 'public',
    version: CURRENT_VERSION,
    versions: [...VERSIONS],
    authentication: {
      type: 'oauth2',
      scheme: 'bearer',
      flows: ['client_credentials'],
      tokenEndpoint: tokenUrl,
      metadata: tokenUrl.replace(/\/oauth2\/token$/, '/.well-known/openid-configuration'),
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttlSeconds: 86_400,
      scope: 'access, tenant and key',
    },
    webhooks: {
      events: [...EVENT_TYPES],
      signatureHeader: 'webhook-signature',
      idHeader: 'webhook-id',
      timestampHeader: 'webhook-timestamp',
    },
    openapi: {
      json: `${base}${P}/openapi/${CURRENT_VERSION}.json`,
      yaml: `${base}${P}/openapi/${CURRENT_VERSION}.yaml`,
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}

export function info(call: Call, ctx: Ctx): void {
  const token = [...ctx.state.tokens.values()].find((t) => t.clientId === ctx.clientId);
  ok(call, {
    service: 'bamboo',
    environment: 'sandbox',
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    version: call.version,
    tokenExpiresAt: token ? timestamp(token.expiresAt) : null,
  });
}
