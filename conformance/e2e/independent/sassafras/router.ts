// The request pipeline, in ASP.NET Core middleware order: version negotiation, routing, authentication, rate
// limiting, tenant authorisation, idempotency-key format, body binding, endpoint. Every refusal is an envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, checkTenant, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import {
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  fail,
  newId,
  newTraceId,
  ok,
  parseJsonObject,
  readBody,
  SUPPORTED_VERSIONS,
  writeJson,
} from './http-kit.ts';
import { openApiDocument } from './openapi.ts';
import { countCall } from './rate-limit.ts';
import { match, ROUTES } from './routes.ts';
import type { Store } from './state.ts';
import { openStream } from './stream.ts';
import { idempotencyKey } from './validate.ts';
import { toYaml } from './yaml.ts';

const P = '/api/public/v1';

function negotiateVersion(store: Store, ctx: Ctx): void {
  const raw = ctx.req.headers['service-version'];
  const asked = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  const hint = `Supported versions: ${SUPPORTED_VERSIONS.join(', ')}.`;
  if (asked === undefined || asked === '') {
    if (store.options.requireServiceVersion)
      throw new ApiError('invalid_request', "The header 'Service-Version' is required.", undefined, hint);
    return;
  }
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(asked)) {
    throw new ApiError(
      'invalid_request',
      'The requested Service-Version is not supported.',
      `Unknown version '${asked.slice(0, 40)}'.`,
      hint,
    );
  }
  ctx.version = asked;
}

function describe(store: Store, ctx: Ctx): void {
  ok(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    supportedVersions: [...SUPPORTED_VERSIONS],
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
      tokenLifetimeSeconds: store.options.tokenLifetimeSec,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      lifetimeHours: 24,
      required: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
    },
    openapi: {
      json: `${ctx.origin}${P}/openapi.json`,
      files: SUPPORTED_VERSIONS.flatMap((v) => [`${P}/openapi/${v}.json`, `${P}/openapi/${v}.yaml`]),
    },
    webhooks: {
      signatureHeader: 'X-Sassafras-Signature',
      events: ['connection.created', 'connection.activated', 'connection.suspended', 'order.created', 'order.paid'],
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}

/** The downloadable files per version (the contract: "also offered as downloadable JSON and YAML files"). */
function download(ctx: Ctx, version: string, yaml: boolean): void {
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version))
    throw new ApiError(
      'not_found',
      'No description of this version exists.',
      undefined,
      `Supported versions: ${SUPPORTED_VERSIONS.join(', ')}.`,
    );
  const doc = openApiDocument(ctx.origin, version);
  ctx.headers['Content-Disposition'] = `attachment; filename="ncs-${version}.${yaml ? 'yaml' : 'json'}"`;
  if (!yaml) {
    writeJson(ctx, 200, doc);
    return;
  }
  const text = toYaml(doc);
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'Content-Type': 'application/yaml; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': ctx.requestId,
  });
  ctx.res.end(text);
}

async function dispatch(store: Store, ctx: Ctx): Promise<void> {
  negotiateVersion(store, ctx);
  const { route, params, pathKnown } = match(ctx.method, ctx.path);
  if (!route) {
    throw new ApiError(
      'not_found',
      pathKnown ? 'The method is not offered on this path.' : 'The resource does not exist.',
      `${ctx.method} ${ctx.path.slice(0, 200)}`,
      'See GET /api/public/v1 for the routes.',
    );
  }
  if (route.path === P) return describe(store, ctx);
  if (route.path === `${P}/openapi.json`) return writeJson(ctx, 200, openApiDocument(ctx.origin));
  if (route.path === `${P}/stream`) return openStream(store, ctx);
  if (route.path.startsWith(`${P}/openapi/`)) return download(ctx, params.version ?? '', route.path.endsWith('.yaml'));
  if (store.options.strictVersions && route.since !== undefined && ctx.version < route.since) {
    throw new ApiError(
      'not_found',
      `This endpoint exists since version ${route.since}.`,
      undefined,
      `Send Service-Version: ${route.since}.`,
    );
  }
  const caller = authenticate(store, ctx);
  countCall(store, ctx, `${caller.clientId}|${caller.tenant}`);
  checkTenant(caller);
  ctx.caller = caller;
  ctx.lenientBinding = store.options.ignoreUnknownFields;
  if (route.method !== 'GET') ctx.idempotencyKey = idempotencyKey(ctx.req.headers['idempotency-key']);
  let body: Record<string, unknown> = {};
  if (route.method === 'POST') {
    const text = await readBody(ctx.req);
    if (route.body || text.trim() !== '') body = parseJsonObject(text);
  }
  route.handle?.({ store, ctx, caller, params, body });
}

export async function handle(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  if (url.pathname === TOKEN_PATH) return tokenEndpoint(store, req, res);
  if (
    url.pathname === '/.well-known/oauth-authorization-server' ||
    url.pathname === '/.well-known/openid-configuration'
  ) {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(metadata(url.origin)));
    return;
  }
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const ctx: Ctx = {
    req,
    res,
    url,
    method: req.method ?? 'GET',
    path,
    requestId: newId(),
    traceId: newTraceId(),
    version: CURRENT_VERSION,
    origin: url.origin,
    headers: {},
  };
  try {
    await dispatch(store, ctx);
  } catch (e) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // Anything unexpected becomes a bare 500: the trace id is all support needs, no exception text leaves.
    fail(
      ctx,
      e instanceof ApiError
        ? e
        : new ApiError(
            'internal',
            'A fault occurred on the service side.',
            undefined,
            'Note the request identifier and inform support.',
          ),
    );
  }
}
