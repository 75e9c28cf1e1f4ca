// The self-description of ebony (GET /api/public/v1): service, versions, authentication, idempotency, limits
// and every route of the version asked for.
import { TOKEN_PATH } from './auth.ts';
import { VERSIONS } from './http.ts';
import type { Route } from './routes.ts';
import type { Ebony } from './state.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export function describe(e: Ebony, version: string, table: Route[]) {
  return {
    service: 'ebony Network Connections Service (z/OS Connect)',
    surface: 'public',
    version,
    versions: [...VERSIONS],
    baseUrls: [e.baseUrl, e.altBaseUrl],
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: `${e.baseUrl}${TOKEN_PATH}`,
      clientAuthentication: ['client_secret_basic', 'client_secret_post'],
      tokenLifetimeSeconds: e.options.tokenTtlSeconds,
      tenantHeader: 'x-service-tenant',
      versionHeader: {
        name: 'Service-Version',
        required: false,
        unknownValue: e.options.strictServiceVersion ? 'rejected (400)' : 'served as current',
      },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validityHours: 24,
      requiredOn: table.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
    },
    rateLimit: {
      limit: e.options.rateLimit,
      windowSeconds: e.options.windowMs / 1000,
      scope: 'access, tenant, environment',
      window: 'fixed',
    },
    webhooks: {
      events: [...WEBHOOK_EVENTS],
      signatureHeader: 'X-Ebony-Signature',
      deliveryIdHeader: 'X-Ebony-Delivery-ID',
      signingKeyField: 'signingKey',
    },
    stream: { events: ['connection.created', 'connection.activated'] },
    routes: table.map((r) => ({
      method: r.method,
      path: r.path,
      purpose: r.purpose,
      auth: r.auth,
      idempotencyKey: !!r.key,
      ...(r.since ? { since: r.since } : {}),
    })),
  };
}
