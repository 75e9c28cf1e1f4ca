// The request pipeline (Giraffe's HttpHandler composition): version negotiation, routing, bearer and
// tenant checks, the rate limit, idempotency (replay, conflict, required) and the envelopes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { match, ROUTES } from './routes.ts';
import type { App, Output, Route } from './types.ts';
import {
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  canonicalJson,
  fail,
  nextRequestId,
  ok,
  parseJsonObject,
  readBody,
  VERSIONS,
} from './util.ts';

const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
const pending = new WeakMap<App, Map<string, Promise<unknown>>>();

export async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const ctx: Ctx = {
    req,
    res,
    url,
    requestId: nextRequestId(),
    version: CURRENT_VERSION,
    origin: `http://${host}`,
    headers: {},
  };
  try {
    if (url.pathname === app.tokenPath) {
      await app.auth.tokenEndpoint(req, res);
      return;
    }
    const sv = req.headers['service-version'];
    const asked = (Array.isArray(sv) ? sv[0] : sv)?.trim();
    if (asked && (VERSIONS as readonly string[]).includes(asked)) ctx.version = asked;
    else if (asked && app.options.unknownVersion === 'reject') {
      throw new ApiError('invalid_request', 'Unsupported Service-Version', `supported: ${VERSIONS.join(', ')}`);
    }
    ctx.headers['service-version'] = ctx.version;
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    let route: Route | undefined;
    let params: Record<string, string> = {};
    let pathKnown = false;
    for (const r of ROUTES) {
      const p = match(path, r.path);
      if (!p) continue;
      if (r.since && ctx.version < r.since) continue;
      pathKnown = true;
      if (r.method === req.method || (req.method === 'HEAD' && r.method === 'GET')) {
        route = r;
        params = p;
        break;
      }
    }
    if (!route) {
      throw new ApiError(
        'not_found',
        pathKnown ? `Method ${req.method} is not offered on this path` : 'No such route',
        `${req.method} ${path}`,
        'GET /api/public/v1 lists every route',
      );
    }
    let access = { clientId: 'anonymous', tenant: '' };
    if (route.auth) {
      access = app.auth.authenticate(req);
      const taken = app.limiter.take(`${access.clientId}|${access.tenant}|${app.environment}`);
      Object.assign(ctx.headers, taken.headers);
      if (taken.retryAfter !== undefined) {
        throw new ApiError(
          'rate_limited',
          'Too many calls in a short time',
          `retry after ${taken.retryAfter} s`,
          'Respect Retry-After and retry with growing intervals',
        );
      }
    }
    if (route.raw) {
      await route.raw(app, ctx, params);
      return;
    }
    const rawKey = req.headers['idempotency-key'];
    const key = (Array.isArray(rawKey) ? rawKey[0] : rawKey)?.trim() || undefined;
    if (route.key === 'required' && !key) {
      throw new ApiError(
        'idempotency_required',
        'An idempotency key is mandatory for this call',
        'header Idempotency-Key missing',
        'Send an Idempotency-Key header',
      );
    }
    if (key !== undefined && route.key !== 'none' && !KEY_PATTERN.test(key)) {
      throw new ApiError(
        'invalid_request',
        'Idempotency-Key has an invalid format',
        'Idempotency-Key: ^[A-Za-z0-9._:-]{8,128}$',
      );
    }
    let body: Record<string, unknown> = {};
    if (req.method === 'POST') {
      const text = await readBody(req);
      if (text.trim() !== '') body = parseJsonObject(text);
    } else if (req.method === 'DELETE') await readBody(req);
    const run = (): Promise<Output> =>
      Promise.resolve(route.handle?.({ app, ctx, access, body, params, idempotencyKey: key }) ?? { data: {} });
    if (!key || route.key === 'none') {
      ok(ctx, (await run()).data);
      return;
    }
    const scope = `${access.clientId}|${access.tenant}|${key}`;
    const fingerprint = canonicalJson({ m: req.method, p: path, b: body });
    const inflight = pending.get(app) ?? new Map<string, Promise<unknown>>();
    pending.set(app, inflight);
    const prior = inflight.get(scope);
    if (prior) await prior.catch(() => undefined);
    const stored = app.store.idempotency.get(scope);
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        throw new ApiError(
          'idempotency_conflict',
          'Same idempotency key with different content',
          undefined,
          'Use a new key for each new operation',
        );
      }
      ok(ctx, stored.data, { idempotencyKey: key, replayed: true });
      return;
    }
    const p = run();
    inflight.set(scope, p);
    try {
      const out = await p;
      app.store.idempotency.set(scope, { fingerprint, status: 200, data: out.replayData ?? out.data, at: Date.now() });
      ok(ctx, out.data, { idempotencyKey: key, replayed: false });
    } finally {
      inflight.delete(scope);
    }
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    const e =
      err instanceof ApiError
        ? err
        : new ApiError(
            'internal',
            'Fault on the service side',
            undefined,
            `Quote the request id ${ctx.requestId} to support`,
          );
    if (!(err instanceof ApiError)) console.error('[ironbark]', ctx.requestId, err);
    fail(ctx, e);
  }
}
