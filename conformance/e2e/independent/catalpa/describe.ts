// The self-description (GET /api/public/v1): the contract's fields, the routes from the route table, and what
// catalpa states about authentication, idempotency, versions, webhooks and the stream.
import { type Ctx, CURRENT_VERSION, ok } from './http.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { ROUTES } from './routes.ts';
import type { State } from './store.ts';
import { EVENTS } from './webhooks.ts';

export function describe(_s: State, ctx: Ctx): void {
  ok(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${ctx.origin}/oauth2/token`,
      metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
      tokenLifetimeSeconds: 900,
      headers: { authorization: 'Bearer <token>', tenant: 'x-service-tenant' },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      minLength: 8,
      maxLength: 128,
      ttlSeconds: KEY_TTL_MS / 1000,
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
    },
    serviceVersion: { header: 'Service-Version', required: false, supported: ['2026-07-01', '2026-06-12'] },
    webhooks: {
      events: EVENTS,
      signatureHeader: 'Signature',
    },
    stream: {
      events: ['connection.created', 'connection.enabled', 'connection.disabled'],
      keepAlive: ':keepalive',
      resume: 'Last-Event-ID or ?cursor; Last-Event-ID wins',
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}
