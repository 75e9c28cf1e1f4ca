// The self-description (GET /api/public/v1) and the first-call info endpoint (GET /info, Micronaut's
// management /info habit: name, version, build).
import { TOKEN_PATH } from './auth.ts';
import { type Ctx, ok } from './http.ts';
import { ROUTES } from './routes.ts';
import { EVENTS, type Store, VERSION, VERSIONS } from './state.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER } from './webhooks.ts';

export function describe(store: Store, ctx: Ctx) {
  ok(ctx, {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      tokenEndpointAuthMethods:
        store.options.tokenAuth === 'post' ? ['client_secret_post'] : ['client_secret_basic', 'client_secret_post'],
      tokenLifetimeSeconds: store.options.tokenTtlSeconds,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: ROUTES.filter((r) => r.keyed).map((r) => `${r.method} ${r.path}`),
      retentionHours: 24,
    },
    routes: ROUTES.filter((r) => !(store.options.versionedDeliveryLog && r.since && r.since > ctx.version)).map(
      ({ method, path, purpose, auth }) => ({ method, path, purpose, auth }),
    ),
    webhooks: { events: EVENTS, signatureHeader: SIGNATURE_HEADER, deliveryIdHeader: DELIVERY_HEADER },
    openapi: VERSIONS.map((v) => ({
      version: v,
      json: `/api/public/v1/openapi/network-connections-${v}.json`,
      yaml: `/api/public/v1/openapi/network-connections-${v}.yml`,
    })),
  });
}

export function info(ctx: Ctx) {
  ok(ctx, {
    name: 'pawpaw',
    version: VERSION,
    status: 'UP',
    build: { framework: 'micronaut-port', node: process.version },
  });
}
