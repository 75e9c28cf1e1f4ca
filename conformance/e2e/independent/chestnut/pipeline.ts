// The authenticated pipeline, in the order an API server's filters run: authentication (401), the access's
// rate limit (429; every authenticated call counts), the tenant (400 missing, 403 not released), the version
// gate, the Idempotency-Key (400 malformed, 428 missing), the body, the idempotency record, the handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type CallContext, parseJsonObject, readBody, sendError, sendOk } from './http-kit.ts';
import { IdempotencyStore } from './idempotency.ts';
import { match } from './route-table.ts';
import type { State } from './state.ts';
import { KEY_PATTERN } from './validate.ts';

export async function handleInterface(
  state: State,
  req: IncomingMessage,
  res: ServerResponse,
  cc: CallContext,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  try {
    const method = req.method ?? 'GET';
    const { route, params, pathKnown } = match(method, path);
    if (route?.handler === undefined) {
      // A method the path does not offer is answered like an unknown path: the Errors table has no 405.
      throw new ApiError(
        'not_found',
        'the entry does not exist',
        pathKnown ? `${method} is not offered on this path` : 'no such path',
      );
    }
    const grant = state.auth.authenticate(req);
    cc.clientId = grant.clientId;
    const tenantHeader = String(req.headers['x-service-tenant'] ?? '');
    const rate = state.rate.take(`${grant.clientId}|${tenantHeader}|sandbox`);
    Object.assign(cc.headers, rate.headers);
    if (!rate.allowed)
      throw new ApiError(
        'rate_limited',
        'too many calls in a short time',
        'the access used up its window',
        'wait for Retry-After seconds, then retry with growing intervals',
      );
    const tenant = state.auth.tenantFor(req, grant, state.options.missingTenant);
    if (state.options.strictQuery === true) {
      const unknown = [...query.keys()].find((k) => !(route.query ?? []).includes(k));
      if (unknown !== undefined)
        throw new ApiError(
          'invalid_request',
          'unknown query parameter',
          `${unknown} is not a parameter of this operation`,
        );
    }
    cc.tenant = tenant;
    if (route.since !== undefined && cc.version < route.since) {
      throw new ApiError('not_found', 'the entry does not exist', `offered since Service-Version ${route.since}`);
    }
    const keyHeader = req.headers['idempotency-key'];
    const key = typeof keyHeader === 'string' ? keyHeader : undefined;
    if (route.key !== 'none' && key !== undefined && !KEY_PATTERN.test(key)) {
      throw new ApiError('invalid_request', 'malformed Idempotency-Key', 'the key must match ^[A-Za-z0-9._:-]{8,128}$');
    }
    if (route.key === 'required' && key === undefined) {
      throw new ApiError(
        'idempotency_required',
        'an idempotency key is mandatory for this call',
        'header Idempotency-Key missing',
        'send the key',
      );
    }
    let body: Record<string, unknown> = {};
    if (method === 'POST' || method === 'DELETE') {
      const raw = await readBody(req);
      // Bodiless operations (delete, redeliver) take no body or an empty JSON object.
      if (method === 'POST' && route.path.endsWith('redeliver') === false) body = parseJsonObject(req, raw);
      else if (raw.trim() !== '') body = parseJsonObject(req, raw);
    }
    const useKey = route.key !== 'none' ? key : undefined;
    if (useKey !== undefined) cc.idempotencyKey = useKey;
    const fp = IdempotencyStore.fingerprint(
      method,
      route.path.replace('{webhookId}', params.id ?? '').replace('{deliveryId}', params.deliveryId ?? ''),
      body,
    );
    if (useKey !== undefined) {
      const found = state.idem.lookup(grant.clientId, tenant, useKey, fp);
      if (found.kind === 'conflict') {
        throw new ApiError(
          'idempotency_conflict',
          'same idempotency key with different content',
          'the key was used for another request',
          'use a new key for each new operation',
        );
      }
      if (found.kind === 'replay') {
        cc.replayed = true;
        return sendOk(res, cc, redact(state, route.operationId, found.data));
      }
    }
    const out = route.handler({
      state,
      tenant,
      clientId: grant.clientId,
      requestId: cc.requestId,
      replay: false,
      body,
      query,
      params,
    });
    if (useKey !== undefined) {
      state.idem.remember(grant.clientId, tenant, useKey, fp, out.data);
      cc.replayed = false;
    }
    Object.assign(cc.headers, out.headers ?? {});
    sendOk(res, cc, out.data);
  } catch (e) {
    const err =
      e instanceof ApiError
        ? e
        : new ApiError('internal', 'fault on the service side', 'quote the request id to support');
    if (err.code === 'idempotency_required' || err.code === 'idempotency_conflict') delete cc.replayed;
    sendError(res, cc, err);
  }
}

/** With redactKeyOnReplay the signing key is issued once only, and a replay says where it went. */
function redact(state: State, operationId: string, data: unknown): unknown {
  if (operationId !== 'createWebhook' || state.options.redactKeyOnReplay !== true) return data;
  const d = data as { webhook: unknown; credentials: Record<string, unknown> };
  return {
    ...d,
    credentials: {
      algorithm: d.credentials.algorithm,
      header: d.credentials.header,
      hmacKey: null,
      redacted: 'issued once with the first answer',
    },
  };
}
