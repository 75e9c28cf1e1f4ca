// One request's way through the service, in the order APIM and the NestJS guards apply it:
// route -> rate limit -> version -> token -> tenant -> role -> Idempotency-Key -> body -> replay or run.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from './deps.ts';
import { countCall, guard, pickVersion, type RateLimiter } from './gateway.ts';
import { ApiError, type Ctx, newCtx, readJsonBody, sendError, sendOk } from './http-kit.ts';
import { fingerprint } from './idempotency.ts';
import { describe, openApiDocument, toYaml } from './openapi.ts';
import { match, type Route } from './routes.ts';
import { offsetTimes, VERSIONS } from './util.ts';
import { idempotencyKey } from './validate.ts';

function servePublic(ctx: Ctx, deps: Deps, route: Route, params: Record<string, string>): void {
  if (route.operationId === 'Stream_Get') {
    deps.stream.serve(ctx);
    return;
  }
  if (route.operationId === 'ServiceDescription_Get') {
    sendOk(ctx, describe(ctx, deps));
    return;
  }
  const version = route.operationId === 'OpenApi_Get' ? ctx.version : (params.version ?? '');
  if (!(VERSIONS as readonly string[]).includes(version))
    throw new ApiError('not_found', 'No description exists for this version.');
  const doc = openApiDocument(version, deps.authority.tokenUrl);
  const yaml = route.operationId === 'OpenApi_GetYamlFile';
  const text = yaml ? toYaml(doc) : JSON.stringify(doc);
  ctx.res.writeHead(200, {
    'x-ms-request-id': ctx.requestId,
    'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    ...(route.operationId === 'OpenApi_Get'
      ? {}
      : { 'content-disposition': `attachment; filename="spruce-${version}.${yaml ? 'yaml' : 'json'}"` }),
  });
  ctx.res.end(text);
}

export async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  deps: Deps,
  limiter: RateLimiter,
): Promise<void> {
  const ctx = newCtx(req, res, origin);
  if (deps.options.offsetTimes) ctx.rewrite = offsetTimes;
  try {
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const path = ctx.url.pathname.length > 1 ? ctx.url.pathname.replace(/\/+$/, '') : ctx.url.pathname;
    const { route, params, pathKnown } = match(method, path);
    if (route && route.access !== 'public') countCall(ctx, deps, limiter);
    pickVersion(ctx, deps.options.serviceVersionRequired, route);
    if (!route) {
      throw new ApiError(
        'not_found',
        pathKnown ? `The method ${method} is not offered on this path.` : 'No such path.',
        { hint: 'See GET /api/public/v1 for the routes.' },
      );
    }
    if (route.access === 'public') return servePublic(ctx, deps, route, params);
    const { tenant, clientId } = guard(ctx, route, deps.options.missingTenantForbidden);
    if (route.key !== 'none') {
      ctx.idempotencyKey = idempotencyKey(req.headers['idempotency-key']);
      if (route.key === 'required' && ctx.idempotencyKey === undefined) {
        throw new ApiError('idempotency_required', 'This call needs an Idempotency-Key header.', {
          target: 'Idempotency-Key',
          hint: 'Send a new key, e.g. from POST /idempotency-keys.',
        });
      }
    }
    const body = method === 'POST' && route.validate ? await readJsonBody(req) : {};
    const input = route.validate ? route.validate(body) : undefined;
    if (deps.options.forbidUnknownFields && input && typeof input === 'object') {
      const unknown = Object.keys(body).filter((k) => !(k in input));
      if (unknown.length > 0)
        throw new ApiError('invalid_request', `Unknown fields: ${unknown.join(', ')}.`, {
          target: unknown[0],
          hint: 'Send only the fields of the published description.',
        });
    }
    const call = { ctx, deps, params, body, tenant, clientId };
    const run = route.run;
    if (!run) throw new ApiError('not_found', 'No such path.');
    const key = ctx.idempotencyKey;
    if (key === undefined) return sendOk(ctx, run(call, input));
    // From here to record() nothing awaits: a concurrent call with the same key sees the record.
    const scope = `${clientId}|${tenant}`;
    const fp = fingerprint(method, path, body);
    const replay = deps.idem.lookup(scope, key, fp);
    if (replay) return sendOk(ctx, redactOnReplay(route, replay.data, deps), { idempotencyKey: key, replayed: true });
    const data = run(call, input);
    deps.idem.record(scope, key, fp, structuredClone(data));
    sendOk(ctx, data, { idempotencyKey: key, replayed: false });
  } catch (e) {
    if (e instanceof ApiError) {
      if (e.code === 'rate_limited') ctx.extraHeaders['retry-after'] = ctx.extraHeaders['retry-after'] ?? '1';
      return sendError(ctx, e);
    }
    // No internals leave the service: the request id is all support needs.
    sendError(
      ctx,
      new ApiError('internal', 'Something went wrong on our side.', {
        hint: `Quote the request id ${ctx.requestId} to support.`,
      }),
    );
  }
}

function redactOnReplay(route: Route, data: unknown, deps: Deps): unknown {
  if (route.operationId !== 'Webhooks_Create' || !deps.options.redactSecretOnReplay) return data;
  const d = structuredClone(data) as { secret?: { value: string | null } };
  if (d.secret) d.secret.value = null;
  return d;
}
