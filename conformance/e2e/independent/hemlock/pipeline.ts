// The request pipeline (a Plug pipeline in spirit): request id and version, routing, authentication,
// tenant, rate limit, idempotency, handler, envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditPage } from './audit.ts';
import { authenticate, tenantOf } from './auth.ts';
import { handleStream } from './events.ts';
import {
  ApiError,
  type CallContext,
  CURRENT_VERSION,
  header,
  invalid,
  newId,
  notFound,
  parseJsonObject,
  readBody,
  SUPPORTED_VERSIONS,
  sendError,
  sendJson,
  sendOk,
} from './http-kit.ts';
import { fingerprint, KEY_TTL_MS, scopeOf } from './idempotency.ts';
import { openApiDocument, toYaml } from './openapi.ts';
import { limitHeaders } from './rate-limit.ts';
import { match, selfDescription } from './route-table.ts';
import type { Call } from './routes-core.ts';
import type { State } from './state.ts';
import { KEY_PATTERN } from './validate.ts';

const ENVIRONMENT = 'sandbox';

function versionOf(req: IncomingMessage, state: State): string {
  const v = header(req, 'service-version');
  const hint = `Supported versions: ${SUPPORTED_VERSIONS.join(', ')} (current ${CURRENT_VERSION}).`;
  if (v === undefined) {
    if (state.options.serviceVersionRequired) throw invalid('The Service-Version header is required.', hint);
    return CURRENT_VERSION;
  }
  if (!SUPPORTED_VERSIONS.includes(v.trim())) throw invalid('Unknown Service-Version.', hint);
  return v.trim();
}

export async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  state: State,
  url: URL,
  tokenUrl: string,
): Promise<void> {
  const ctx: CallContext = { requestId: newId('req', 20), version: CURRENT_VERSION, headers: {} };
  try {
    ctx.version = versionOf(req, state);
    const found = match(req.method ?? 'GET', url.pathname.replace(/(.)\/+$/, '$1'));
    if (!found) throw notFound('No such route.');
    const { route, params } = found;
    // Versioned pipelines: a route added in a later version does not exist for callers of an earlier one.
    if (route.since !== undefined && ctx.version < route.since) {
      throw new ApiError({
        status: 404,
        code: 'not_found',
        message: 'The entry does not exist.',
        detail: `This route was added in ${route.since}.`,
        hint: `Send Service-Version: ${route.since}.`,
      });
    }
    if (!route.auth) {
      if (route.operationId === 'streamStatus') return handleStream(req, res, state, ctx, url);
      if (route.operationId === 'describeService') return sendOk(res, ctx, selfDescription(tokenUrl));
      const doc = openApiDocument(url.origin, tokenUrl);
      if (route.operationId === 'getOpenApi') return sendJson(res, ctx, 200, doc);
      if (params.version !== CURRENT_VERSION) throw notFound('No description file of this version.');
      res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8', 'x-request-id': ctx.requestId });
      res.end(toYaml(doc));
      return;
    }
    const clientId = authenticate(req, state);
    const tenant = tenantOf(req, state);
    const verdict = state.buckets.take(`${clientId}|${tenant}|${ENVIRONMENT}`);
    Object.assign(ctx.headers, limitHeaders(verdict));
    if (!verdict.allowed) {
      throw new ApiError({
        status: 429,
        code: 'rate_limited',
        message: 'Too many calls in a short time.',
        hint: `Wait ${verdict.retryAfterSeconds} s (Retry-After), then retry with growing intervals.`,
      });
    }
    const call: Call = { state, ctx, clientId, tenant, url, params, body: {} };
    if (route.operationId === 'getInfo') {
      return sendOk(res, ctx, {
        tenant,
        clientId,
        environment: ENVIRONMENT,
        purpose: 'conformance and integration testing',
        expiresAt: null,
      });
    }
    if (route.operationId === 'getAuditLog') return sendOk(res, ctx, auditPage(state, tenant, state.clientSecret, url));
    if (route.method === 'GET') return sendOk(res, ctx, route.handler?.(call));
    // Modifying calls: the key is checked before the body, so a missing key is always 428.
    const key = header(req, 'idempotency-key');
    if (key === undefined && route.key === 'required') {
      throw new ApiError({
        status: 428,
        code: 'idempotency_required',
        message: 'An idempotency key is mandatory for this call.',
        hint: 'Send an Idempotency-Key header (pattern ^[A-Za-z0-9._:-]{8,128}$), e.g. from POST /api/public/v1/idempotency-keys.',
      });
    }
    if (key !== undefined && !KEY_PATTERN.test(key)) {
      throw invalid('Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$.');
    }
    if (key !== undefined) ctx.idempotencyKey = key;
    const raw = await readBody(req);
    call.body = route.method === 'POST' ? parseJsonObject(raw) : {};
    const fp = fingerprint(route.method, url.pathname, route.method === 'POST' ? call.body : null);
    const scope = key === undefined ? undefined : scopeOf(clientId, tenant, key);
    const stored = scope === undefined ? undefined : state.idempotency.get(scope);
    if (stored) {
      if (stored.fingerprint !== fp) {
        throw new ApiError({
          status: 409,
          code: 'idempotency_conflict',
          message: 'The idempotency key was already used with different content.',
          hint: 'Use a new key for each new operation.',
        });
      }
      ctx.replayed = true;
      ctx.headers['idempotency-replayed'] = 'true';
      if (stored.error !== undefined) return sendError(res, ctx, stored.error);
      let data = stored.data;
      if (state.options.redactKeyOnReplay && route.operationId === 'createWebhook') {
        data = { ...(data as Record<string, unknown>), signingKey: undefined };
      }
      return sendOk(res, ctx, data);
    }
    let data: unknown;
    try {
      data = route.handler?.(call);
    } catch (e) {
      // Optionally (Stripe-like) a refusal reached after validation (404, 409 capability_denied) is kept under
      // the key too, so the same key and content get the same refusal again; validation failures never are.
      if (
        scope !== undefined &&
        state.options.replayRefusals &&
        e instanceof ApiError &&
        (e.spec.status === 404 || e.spec.status === 409)
      ) {
        state.idempotency.put(scope, {
          fingerprint: fp,
          status: e.spec.status,
          data: null,
          error: e.spec,
          expiresAt: Date.now() + KEY_TTL_MS,
        });
        ctx.replayed = false;
      }
      throw e;
    }
    if (scope !== undefined) {
      ctx.replayed = false;
      state.idempotency.put(scope, {
        fingerprint: fp,
        status: 200,
        data: structuredClone(data),
        expiresAt: Date.now() + KEY_TTL_MS,
      });
    }
    return sendOk(res, ctx, data);
  } catch (e) {
    if (e instanceof ApiError) {
      if (e.spec.status === 401) ctx.headers['www-authenticate'] = 'Bearer realm="hemlock"';
      return sendError(res, ctx, e.spec);
    }
    // No internal detail leaves the service: the request id is all support needs.
    console.error(`[hemlock] ${ctx.requestId}`, e);
    sendError(res, ctx, {
      status: 500,
      code: 'internal',
      message: 'Fault on the service side.',
      hint: `Quote request id ${ctx.requestId} to support.`,
    });
  }
}
