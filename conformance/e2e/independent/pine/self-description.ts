// GET /api/public/v1: the self-description, built from the route table (so it lists what is served).
// `routes` lists every route pine serves, the interface's and pine's own additions (info, one connection,
// connection actions, receivers, delivery log and replay, the per-version OpenAPI downloads), each with
// its auth flag; `authentication` names the token endpoint and its RFC 8414 metadata, so a client needs
// nothing but the base address; `idempotency` states the key pattern, its 48 h validity and the routes
// that require a key. `openapi.downloads` are JSON files only (the team publishes no YAML).

import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import type { Answer, Ctx } from './http-kit.ts';
import { CURRENT_VERSION, ok } from './http-kit.ts';
import { KEY_PATTERN, KEY_VALIDITY_MS } from './idempotency.ts';
import { ROUTES } from './routes.ts';

const P = '/api/public/v1';

export function selfDescription(ctx: Ctx): Answer {
  return ok({
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    versions: ['2026-06-12', CURRENT_VERSION],
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      metadata: `${ctx.origin}${METADATA_PATH}`,
      headers: [
        'Authorization: Bearer <token>',
        'x-service-tenant',
        'Service-Version (required on authenticated calls)',
      ],
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validityHours: KEY_VALIDITY_MS / 3_600_000,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
    },
    openapi: {
      json: `${ctx.origin}${P}/openapi.json`,
      downloads: {
        [CURRENT_VERSION]: `${ctx.origin}${P}/openapi/${CURRENT_VERSION}`,
        '2026-06-12': `${ctx.origin}${P}/openapi/2026-06-12`,
      },
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}
