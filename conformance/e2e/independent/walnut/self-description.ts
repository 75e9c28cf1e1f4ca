// GET /api/public/v1: the interface's own account of itself, including how the audit proof and the
// webhook signature are computed (so a partner can verify both without asking).
import { CANONICAL, CHECKPOINT_STRING } from './audit.ts';
import { API } from './core.ts';
import { TOKEN_PATH } from './oauth.ts';
import { ROUTES } from './routes.ts';
import type { State } from './state.ts';
import { EVENTS, SIGNATURE_HEADER } from './webhooks.ts';

export function selfDescription(s: State, origin: string, version: string) {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      scheme: 'Bearer',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      required_on: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${API}${r.path}`),
      honoured_on: ROUTES.filter((r) => r.key === 'optional').map((r) => `${r.method} ${API}${r.path}`),
      ttl_seconds: 86400,
      scope: 'client, tenant and key (case-sensitive)',
      replay: 'same method, path and JSON body: the original status and data with meta.replayed true',
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${API}${r.path}`, purpose: r.purpose, auth: r.auth })),
    throttling: {
      classes: ['burst', 'sustained', 'scope'],
      burst: `${s.opts.rateLimit}/${s.opts.windowMs / 1000}s per client and tenant`,
      sustained: `${s.opts.rateLimit * 10}/${(s.opts.windowMs * 10) / 1000}s per client and tenant`,
      scope: `${s.opts.rateLimit}/${s.opts.windowMs / 1000}s per client, tenant and view scope`,
      headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Scope', 'Retry-After'],
    },
    webhooks: {
      events: EVENTS,
      signature_header: SIGNATURE_HEADER,
      signature: 't=<unix-seconds>,v1=<lowercase hex HMAC-SHA256(signing_key, "<t>.<raw body>")>',
      delivery_header: 'X-Walnut-Delivery',
      retry: 'exponential: 1 s, 2 s, 4 s, 8 s (five attempts)',
      delivery_log: `${API}/webhooks/{webhookId}/deliveries`,
      redeliver: `${API}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`,
    },
    audit: {
      order: 'oldest first',
      paging: 'limit/offset, absolute next and previous URLs',
      entry_digest: {
        algorithm: 'sha256',
        encoding: 'hex',
        field: 'digest',
        canonical_string: CANONICAL,
        chain_field: 'prev_digest',
      },
      checkpoint: { every: s.opts.checkpointEvery, algorithm: 'hmac-sha256', signed_string: CHECKPOINT_STRING },
    },
    stream: { events: ['connection.created', 'connection.state_changed'], resume: 'Last-Event-ID, else ?cursor' },
    openapi: {
      json: `${API}/openapi.json`,
      yaml: `${API}/openapi.yaml`,
      downloads: ['2026-06-12', '2026-07-01'].flatMap((v) => [`${API}/schema/${v}.json`, `${API}/schema/${v}.yaml`]),
    },
  };
}
