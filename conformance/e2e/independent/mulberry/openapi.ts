// The self-description and the OpenAPI document: openapi.yaml, hand-written, read and converted to JSON once at start. Served
// as JSON (openapi.json, openapi/2026-07-01.json) and as the YAML file itself (openapi.yaml,
// openapi/2026-07-01.yaml).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { TOKEN_PATH } from './auth.ts';
import { baseHeaders, type Ctx, ok } from './http.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { VERSIONS } from './state.ts';
import { EVENT_NAMES } from './webhooks.ts';

interface RouteInfo {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
}

const YAML_TEXT = readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8');
const JSON_TEXT = JSON.stringify(parse(YAML_TEXT));

export const DOC_PATHS: Record<string, 'json' | 'yaml'> = {
  '/api/public/v1/openapi.json': 'json',
  '/api/public/v1/openapi/2026-07-01.json': 'json',
  '/api/public/v1/openapi.yaml': 'yaml',
  '/api/public/v1/openapi/2026-07-01.yaml': 'yaml',
};

export function serveDocument(ctx: Ctx, kind: 'json' | 'yaml'): void {
  const max = ctx.state.opts.auditMaxLimit;
  // The audit page maximum is configurable: the document says the configured one.
  const text = (kind === 'json' ? JSON_TEXT : YAML_TEXT).replace(/(maximum"?: ?)200\b/, `$1${max}`);
  const file = `mulberry-openapi-2026-07-01.${kind}`;
  ctx.res.writeHead(200, {
    ...baseHeaders(ctx),
    'Content-Type': kind === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Content-Disposition': `inline; filename="${file}"`,
  });
  ctx.res.end(text);
}

/** GET /api/public/v1: the self-description; routes from the route table. */
export function describe(ctx: Ctx, routes: RouteInfo[]): void {
  ok(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
      tokenLifetimeSeconds: ctx.state.opts.tokenTtlSeconds,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validitySeconds: KEY_TTL_MS / 1000,
      requiredOn: [
        'POST /connections',
        'POST /webhooks',
        'DELETE /webhooks/{webhookId}',
        'POST /deliveries/{deliveryId}/redeliver',
      ],
    },
    webhooks: { events: EVENT_NAMES, signatureHeader: 'Mulberry-Signature', deliveryIdHeader: 'Mulberry-Delivery-Id' },
    routes: routes.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
  });
}
