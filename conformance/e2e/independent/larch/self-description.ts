// GET /api/public/v1: the interface's self-description, with larch's choices spelled out for partners.
import { AUDIT_KEY_ID } from './audit.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { BASE, DELIVERY_ID_HEADER, EVENT_NAMES, SIGNATURE_HEADER, TOKEN_PATH, VERSION, VERSIONS } from './options.ts';
import { ROUTES } from './routes.ts';
import type { State } from './store.ts';

export function selfDescription(origin: string, state: State): Record<string, unknown> {
  return {
    service: 'Network Connections Service (larch)',
    surface: 'public',
    version: VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      tokenLifetimeSeconds: state.config.tokenTtlSeconds,
      tenantHeader: 'x-service-tenant',
      openidConfiguration: `${origin}/realms/larch/.well-known/openid-configuration`,
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${BASE}${r.path}`),
      scope: 'client, tenant and key',
      fingerprint: 'method, path and canonical JSON body',
      retentionSeconds: KEY_TTL_MS / 1000,
      storedOutcomes: 'successful (200) answers only; a refused call may be sent again with the same key',
    },
    rateLimit: {
      algorithm: 'fixed window per client, tenant and environment',
      limit: state.config.rateLimit,
      windowSeconds: state.config.windowMs / 1000,
      headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
    },
    webhooks: {
      events: EVENT_NAMES,
      signatureHeader: SIGNATURE_HEADER,
      deliveryIdHeader: DELIVERY_ID_HEADER,
      signingKeyField: 'signingKey.secret',
      retryScheduleSeconds: state.config.retryScheduleMs.map((ms) => ms / 1000),
      deliveryLog: `GET ${BASE}/webhook-deliveries?webhookId={webhookId}&page=0&size=20`,
      redeliver: `POST ${BASE}/webhook-deliveries/{deliveryId}/redeliver`,
    },
    stream: {
      events: ['CONNECTION_CREATED', 'CONNECTION_STATE_CHANGED'],
      resume: 'Last-Event-ID header (wins) or ?cursor=<last number read>',
      retention: 'last 10000 messages',
    },
    auditLog: {
      order: state.config.auditOldestFirst ? 'oldest first' : 'newest first',
      paging: 'page (from 0) and size (1-500, default 20; limit is an alias of size), Link rel="next"',
      proof: {
        digest: 'SHA-256, lowercase hex, over the sorted-keys JSON of data.content',
        signature: `HMAC-SHA256 by the service audit key ${AUDIT_KEY_ID} over tenant LF page LF size LF totalElements LF digest`,
        verification: 'recompute data.proof.digest from data.content; the signature is verified by support on request',
      },
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${BASE}${r.path}`, purpose: r.purpose, auth: r.auth })),
  };
}
