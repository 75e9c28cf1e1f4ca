// The interface describing itself: the self-description built from the route table, the OpenAPI document
// (served without the envelope) and its downloads per version as JSON and YAML.
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { ApiError, sendJson, VERSIONS } from './http-util.ts';
import { openApiDocument } from './openapi.ts';
import type { Call } from './route-types.ts';
import { ROUTES } from './routes.ts';
import { EVENT_NAMES } from './webhooks.ts';
import { toYaml } from './yaml.ts';

const P = '/api/public/v1';

export function selfDescription(call: Call): unknown {
  return {
    service: 'baobab network connections',
    surface: 'public',
    version: call.ctx.version,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${call.origin}${TOKEN_PATH}`,
      metadata: `${call.origin}${METADATA_PATH}`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validity: '24 h after first use',
      issue: `POST ${P}/idempotency-keys`,
    },
    webhooks: { events: EVENT_NAMES, signatureHeader: 'X-Baobab-Signature' },
    descriptions: Object.fromEntries(
      VERSIONS.map((v) => [
        v,
        { json: `${call.origin}${P}/openapi/${v}.json`, yaml: `${call.origin}${P}/openapi/${v}.yaml` },
      ]),
    ),
    routes: ROUTES.filter((r) => !r.since || r.since <= call.ctx.version).map((r) => ({
      method: r.method,
      path: r.path,
      purpose: r.purpose,
      auth: r.auth,
    })),
  };
}

/** The OpenAPI document is served as it is, without the envelope. */
export function sendDocument(call: Call, doc: unknown): void {
  sendJson(call.res, call.ctx, 200, doc);
}

/** GET /openapi/{version}.json|.yaml: the description of each published version as a download. */
export function sendDownload(call: Call): void {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(String(call.params.file));
  if (!m?.[1] || !VERSIONS.includes(m[1]))
    throw new ApiError(
      'not_found',
      'No description file of that name',
      'path.file: expected <version>.json or <version>.yaml',
    );
  const doc = openApiDocument(call.origin, m[1]);
  if (m[2] === 'json') {
    call.ctx.headers['Content-Disposition'] = `attachment; filename="baobab-openapi-${m[1]}.json"`;
    sendDocument(call, doc);
    return;
  }
  const text = toYaml(doc);
  call.res.writeHead(200, {
    'Content-Type': 'application/yaml; charset=utf-8',
    'Content-Disposition': `attachment; filename="baobab-openapi-${m[1]}.yaml"`,
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Request-Id': call.ctx.requestId,
  });
  call.res.end(text);
}
