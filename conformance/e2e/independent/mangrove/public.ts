// The public reads: the self-description, openapi.json and the downloadable description files per version.
import { type Ctx, ok, VERSION } from './http.ts';
import { openapiDocument, ROUTES } from './openapi.ts';
import { WEBHOOK_EVENTS } from './state.ts';
import { toYaml } from './yaml.ts';

const P = '/api/public/v1';
const VERSIONS = ['2026-07-01', '2026-06-12'];

export function describe(tokenUrl: string): Record<string, unknown> {
  return {
    service: 'mangrove',
    surface: 'public',
    version: VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      token_url: tokenUrl,
      tenant_header: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttl_seconds: 86400,
      required_on: [
        'POST /connections',
        'POST /webhooks',
        'DELETE /webhooks/{id}',
        'POST /webhook_deliveries/{id}/redeliver',
      ],
    },
    webhooks: {
      events: [...WEBHOOK_EVENTS],
      signature_header: 'X-Mangrove-Signature',
      delivery_header: 'X-Mangrove-Delivery',
      retries: 'Sidekiq schedule: (n**4) + 15 + rand(10 * (n + 1)) seconds, 5 attempts',
    },
    stream: { events: [...WEBHOOK_EVENTS], resume: ['Last-Event-ID', 'cursor'] },
    openapi_files: VERSIONS.map((v) => ({
      version: v,
      json: `${P}/openapi/${v}.json`,
      yaml: `${P}/openapi/${v}.yaml`,
    })),
    routes: ROUTES,
  };
}

/** Answers a public read; false when the path is none of them. */
export function servePublic(ctx: Ctx, tokenUrl: string): boolean {
  const path = ctx.url.pathname;
  if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD') return false;
  if (path === P) {
    ok(ctx, describe(tokenUrl));
    return true;
  }
  const file = /^\/api\/public\/v1\/openapi\/(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(path);
  const version = path === `${P}/openapi.json` ? VERSION : file?.[1];
  if (!version || !VERSIONS.includes(version)) return false;
  const doc = openapiDocument(tokenUrl, version);
  const yaml = file?.[2] === 'yaml';
  const text = yaml ? toYaml(doc) : JSON.stringify(doc);
  const headers: Record<string, string> = {
    'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
  };
  if (file) headers['content-disposition'] = `attachment; filename="mangrove-openapi-${version}.${file[2]}"`;
  ctx.res.writeHead(200, headers);
  ctx.res.end(text);
  return true;
}
