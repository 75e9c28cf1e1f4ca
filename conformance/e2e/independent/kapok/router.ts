// The request pipeline: route match, rate window, authentication, Idempotency-Key rules, handler, envelope.
// Order on a keyed POST: 401/400/403 -> 429 -> key pattern 400 -> 428 -> replay or 409 -> validation -> run.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, type Caller, count } from './auth.ts';
import { ApiError, bad, canonical, type Meta, newMeta, parseObject, readRaw, sendError, sendOk } from './http-util.ts';
import type { State } from './state.ts';

export interface Ctx {
  s: State;
  req: IncomingMessage;
  url: URL;
  caller: Caller;
  params: Record<string, string>;
  body: () => Record<string, unknown>;
}

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  /** required: "yes + key"; optional: honoured when sent; none: reads. */
  key: 'required' | 'optional' | 'none';
  handler: (ctx: Ctx) => unknown;
}

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
const IDEM_TTL_MS = 3600_000;
const REPLAYABLE = ['invalid_request', 'not_found', 'capability_denied'];

export function match(routes: Route[], method: string, path: string) {
  for (const r of routes) {
    const re = new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
    const m = re.exec(path);
    if (m && r.method === method) return { route: r, params: { id: decodeURIComponent(m[1] ?? '') } };
  }
  return null;
}

export async function handleApi(
  s: State,
  route: Route,
  params: Record<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const meta: Meta = newMeta();
  try {
    // Every authenticated call counts, refusals too: the window key is what the call presented.
    const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? 'anonymous';
    const tenantHeader = String(req.headers['x-service-tenant'] ?? '');
    const rate = count(s, presented, tenantHeader);
    res.setHeader('x-ratelimit-limit', String(rate.limit));
    res.setHeader('x-ratelimit-remaining', String(rate.remaining));
    const caller = authenticate(s, req);
    if (rate.exceeded) {
      res.setHeader('retry-after', String(rate.retryAfter));
      throw new ApiError(
        'rate_limited',
        'too many calls in this window',
        `retry after ${rate.retryAfter} s`,
        'respect Retry-After',
      );
    }
    const rawKey = req.headers['idempotency-key'];
    const key = typeof rawKey === 'string' && route.key !== 'none' ? rawKey : undefined;
    if (key !== undefined) {
      meta.idempotencyKey = key;
      if (!KEY.test(key)) {
        delete meta.idempotencyKey;
        throw bad('Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$');
      }
    }
    if (route.key === 'required' && key === undefined)
      throw new ApiError(
        'idempotency_required',
        'an Idempotency-Key header is required for this call',
        undefined,
        'send the key',
      );
    const raw = req.method === 'POST' ? await readRaw(req) : '';
    let parsed: Record<string, unknown> | undefined;
    const body = () => {
      parsed ??= parseObject(raw);
      return parsed;
    };
    const ctx: Ctx = { s, req, url, caller, params, body };
    if (key === undefined) return sendOk(res, meta, route.handler(ctx));
    // Synchronous from lookup to store: same-key calls arriving together cannot both run.
    let content: string;
    try {
      content = canonical(JSON.parse(raw));
    } catch {
      content = raw;
    }
    const byClient = s.opts.keyScopeClient;
    const fingerprint = `${req.method} ${url.pathname}${byClient ? ` ${caller.tenant}` : ''}\n${content}`;
    const scope = `${caller.clientId}\u0000${byClient ? '' : caller.tenant}\u0000${key}`;
    const now = Date.now();
    const stored = s.idem.get(scope);
    if (stored && stored.expires > now) {
      if (stored.fingerprint !== fingerprint)
        throw new ApiError(
          'idempotency_conflict',
          'this key was used with different content',
          undefined,
          'use a new key for each new operation',
        );
      meta.replayed = true;
      if (stored.error) {
        const { code, message, detail, hint } = stored.error;
        return sendError(res, meta, new ApiError(code, message, detail, hint));
      }
      return sendOk(res, meta, replayView(s, stored.data));
    }
    let data: unknown;
    try {
      data = route.handler(ctx);
    } catch (e) {
      if (s.opts.replayRefusals && e instanceof ApiError && REPLAYABLE.includes(e.code)) {
        const error = { code: e.code, message: e.message, detail: e.detail, hint: e.hint };
        s.idem.set(scope, { fingerprint, status: 0, data: null, error, expires: now + IDEM_TTL_MS });
      }
      throw e;
    }
    s.idem.set(scope, { fingerprint, status: 200, data, expires: now + IDEM_TTL_MS });
    return sendOk(res, meta, data);
  } catch (e) {
    if (res.headersSent) return;
    const err =
      e instanceof ApiError
        ? e
        : new ApiError('internal', 'fault on the service side', undefined, 'quote meta.requestId to support');
    sendError(res, meta, err);
  }
}

function replayView(s: State, data: unknown): unknown {
  if (!s.opts.redactKeyOnReplay || !data || typeof data !== 'object' || !('signingKey' in data)) return data;
  const { signingKey: _k, ...rest } = data as Record<string, unknown>;
  return { ...rest, signingKeyShown: false };
}
