// Public and small routes: the self-description, the per-version documents, GET /info and the
// idempotency-key generator.
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { type Ctx, HttpError, nanoid, ok, type Rec, readJson, VERSIONS } from './http.ts';
import { KEY_PATTERN, KEY_TTL_MS } from './idempotency.ts';
import { openapiDocument } from './openapi.ts';
import { ROUTES } from './route-table.ts';
import { type Store, TENANTS } from './state.ts';
import { t, validate } from './validate.ts';
import { EVENT_NAMES, SIGNATURE_HEADER } from './webhook-queue.ts';
import { toYaml } from './yaml.ts';

export function describe(ctx: Ctx) {
  ok(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    // Paths, not addresses: both listening addresses serve the same description.
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: TOKEN_PATH,
      metadata: METADATA_PATH,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN,
      retentionSeconds: KEY_TTL_MS / 1000,
      requiredOn: ['POST', 'DELETE'],
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    webhooks: { events: EVENT_NAMES, signatureHeader: SIGNATURE_HEADER, retry: 'exponential backoff, 5 attempts' },
    stream: {
      resume: ['Last-Event-ID', 'cursor'],
      events: ['connection.created', 'connection.activated', 'service.status'],
    },
  });
}

export function openapiJson(ctx: Ctx) {
  ctx.res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...ctx.headers });
  ctx.res.end(JSON.stringify(openapiDocument(ctx.version)));
}

/** `/openapi/<version>.json|yaml` as downloads, one file per published version. */
export function openapiFile(ctx: Ctx, version: string, yaml: boolean) {
  if (!VERSIONS.includes(version))
    throw new HttpError(404, 'not_found', 'No document for this version', `Published: ${VERSIONS.join(', ')}`);
  const doc = openapiDocument(version);
  ctx.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="ncs-${version}.${yaml ? 'yaml' : 'json'}"`,
    ...ctx.headers,
  });
  ctx.res.end(yaml ? toYaml(doc) : JSON.stringify(doc, null, 2));
}

export function info(ctx: Ctx, store: Store, token: string | undefined) {
  const grant = token ? store.tokens.get(token) : undefined;
  const data: Rec = {
    clientId: ctx.clientId ?? '',
    environment: 'sandbox',
    version: ctx.version,
    tenants: [TENANTS.main, TENANTS.other],
    tokenExpiresAt: new Date(grant?.expiresAt ?? Date.now()).toISOString(),
  };
  ok(ctx, data);
}

export async function createKey(ctx: Ctx) {
  const body = validate<{ operation: string }>(
    t.Object({ operation: t.String({ minLength: 2, maxLength: 80 }) }),
    await readJson(ctx),
  );
  ok(ctx, {
    idempotencyKey: `idk_${nanoid(24)}`,
    operation: body.operation,
    expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString(),
  });
}
