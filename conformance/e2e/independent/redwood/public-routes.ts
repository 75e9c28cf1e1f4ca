// The public reads: the self-description (routes, authentication, idempotency, stream, webhooks, the audit
// proof's public key, rate limits) and the OpenAPI document, also as per-version JSON and YAML downloads.
import type { createAudit } from './audit.ts';
import { type Ctx, CURRENT_VERSION, ok, sendJson, VERSIONS } from './http-util.ts';
import { KEY_PATTERN, KEY_TTL_MS } from './idempotency.ts';
import { openapiDocument, toYaml } from './openapi.ts';
import { ROUTES } from './route-table.ts';
import { EVENT_TYPES, SIGNATURE_HEADER } from './webhooks.ts';

const P = '/api/public/v1';

interface PublicDeps {
  audit: ReturnType<typeof createAudit>;
  windowMs: number;
  rateLimit: number;
  tokenTtlS: number;
}

function selfDescription(origin: string, d: PublicDeps) {
  return {
    service: 'network-connections',
    surface: 'public',
    version: CURRENT_VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}/auth/v1/token`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      tokenLifetimeSeconds: d.tokenTtlS,
      headers: ['Authorization: Bearer <token>', 'x-service-tenant: <tenant>'],
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validitySeconds: KEY_TTL_MS / 1000,
      validFrom: 'first use',
      scope: 'client and tenant',
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    stream: {
      path: `${P}/stream`,
      format: 'CloudEvents 1.0 JSON in SSE data',
      eventTypes: EVENT_TYPES.slice(0, 3),
      resume: ['Last-Event-ID', 'cursor'],
    },
    webhooks: {
      events: EVENT_TYPES,
      signatureHeader: SIGNATURE_HEADER,
      signature: 't=<unix-seconds>,v1=<hex HMAC-SHA256 over "<t>.<raw body>">',
      contentType: 'application/cloudevents+json',
      retries: ['1 s', '5 s'],
    },
    auditLog: { path: `${P}/audit-log`, proof: d.audit.publicInfo },
    rateLimit: {
      window: 'fixed',
      windowSeconds: d.windowMs / 1000,
      limit: d.rateLimit,
      per: 'client, tenant and environment',
    },
    openapi: {
      json: `${P}/openapi.json`,
      downloads: VERSIONS.flatMap((v) => [`${P}/openapi/${v}.json`, `${P}/openapi/${v}.yaml`]),
    },
  };
}

/** Answers a public GET of a document; false when the path is none of them. */
export function servePublic(ctx: Ctx, d: PublicDeps): boolean {
  const { pathname } = ctx.url;
  if (pathname === P || pathname === `${P}/`) {
    ok(ctx, selfDescription(ctx.url.origin, d));
    return true;
  }
  if (pathname === `${P}/openapi.json`) {
    sendJson(ctx, 200, openapiDocument(ctx.url.origin));
    return true;
  }
  const file = /^\/api\/public\/v1\/openapi\/(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(pathname);
  if (file?.[1] && VERSIONS.includes(file[1])) {
    const doc = {
      ...openapiDocument(ctx.url.origin),
      info: { title: 'Network Connections Service', version: file[1] },
    };
    if (file[2] === 'json') {
      sendJson(ctx, 200, doc, { 'content-disposition': `attachment; filename="openapi-${file[1]}.json"` });
      return true;
    }
    ctx.res.writeHead(200, {
      'content-type': 'application/yaml; charset=utf-8',
      'content-disposition': `attachment; filename="openapi-${file[1]}.yaml"`,
      'x-request-id': ctx.requestId,
    });
    ctx.res.end(`${toYaml(doc).trimStart()}\n`);
    return true;
  }
  return false;
}
