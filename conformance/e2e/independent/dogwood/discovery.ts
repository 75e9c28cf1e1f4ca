// Discovery: the self-description and the per-version OpenAPI downloads (JSON and YAML).
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { buildOpenApi } from './openapi.ts';
import type { Route } from './state.ts';
import { STREAM_KINDS } from './stream.ts';
import { BASE, type Ctx, CURRENT_VERSION, notFound, VERSIONS } from './util.ts';
import { SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

/** Links are built from the address called (main or alternate), as Nest behind Kong sees the Host. */
export const origin = (ctx: Ctx): string => `http://${ctx.req.headers.host ?? '127.0.0.1'}`;

export function selfDescription(ctx: Ctx, routes: Route[]) {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: CURRENT_VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: `${origin(ctx)}${TOKEN_PATH}`,
      metadata: `${origin(ctx)}${METADATA_PATH}`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      scope: 'tenant',
      retentionHours: 24,
    },
    openapi: { json: `${BASE}/openapi/${CURRENT_VERSION}.json`, yaml: `${BASE}/openapi/${CURRENT_VERSION}.yaml` },
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: SIGNATURE_HEADER },
    stream: { events: STREAM_KINDS },
    routes: routes.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}

/** JSON is YAML 1.2, so the .yaml download is the same document under a YAML media type. */
export function download(ctx: Ctx, file: string, routes: Route[]): undefined {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(file);
  if (!m?.[1] || !VERSIONS.includes(m[1])) throw notFound(`no document ${file}`);
  const text = JSON.stringify(buildOpenApi(routes, origin(ctx), m[1]), null, 2);
  const type = m[2] === 'yaml' ? 'application/yaml' : 'application/json';
  ctx.res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'content-disposition': `attachment; filename="ncs-${file}"`,
  });
  ctx.res.end(text);
  return undefined;
}
