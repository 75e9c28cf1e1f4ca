// What stands before every authenticated handler, in order: the rate-limit window (counted for every
// call, so every authenticated answer carries X-RateLimit-*), the bearer token (401), the tenant (403),
// the Idempotency-Key (428 / 400), the body, then the idempotency record (replay / 409) and the handler.
import type { IncomingMessage } from 'node:http';
import type { Auth } from './auth.ts';
import type { Deps, Handler } from './handlers.ts';
import type { Route } from './routes.ts';
import type { IdemRecord } from './state.ts';
import { ApiError, canonical, type Reply, readJson } from './util.ts';
import { KEY_PATTERN } from './validate.ts';

interface Window {
  start: number;
  used: number;
}

export class Gate {
  private readonly windows = new Map<string, Window>();
  private readonly auth: Auth;
  private readonly tenants: string[];
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly deps: Deps;
  private readonly originalRequestId: boolean;
  constructor(auth: Auth, tenants: string[], limit: number, windowMs: number, deps: Deps, originalRequestId: boolean) {
    this.auth = auth;
    this.tenants = tenants;
    this.limit = limit;
    this.windowMs = windowMs;
    this.deps = deps;
    this.originalRequestId = originalRequestId;
  }

  /** Fixed window per client (or caller address when unauthenticated), tenant header and environment. */
  private count(key: string, reply: Reply): void {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, used: 0 };
      this.windows.set(key, w);
    }
    w.used += 1;
    const remaining = Math.max(0, this.limit - w.used);
    reply.res.setHeader('X-RateLimit-Limit', String(this.limit));
    reply.res.setHeader('X-RateLimit-Remaining', String(remaining));
    if (w.used > this.limit) {
      const wait = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
      reply.res.setHeader('Retry-After', String(wait));
      throw new ApiError(
        429,
        'rate_limited',
        'too many calls in this window',
        `retry after ${wait} s`,
        'respect Retry-After and retry with growing intervals',
      );
    }
  }

  async run(
    route: Route,
    req: IncomingMessage,
    reply: Reply,
    query: URLSearchParams,
    params: Record<string, string>,
    pick: (op: string) => Handler,
  ): Promise<void> {
    const caller = this.auth.verifyBearer(req.headers.authorization);
    const tenantHeader = req.headers['x-service-tenant'];
    const tenant = typeof tenantHeader === 'string' ? tenantHeader.trim() : '';
    this.count(`${caller?.clientId ?? `anon:${req.socket.remoteAddress}`}|${tenant}|sandbox`, reply);
    if (!caller)
      throw new ApiError(
        401,
        'unauthorized',
        'a valid bearer token is required',
        undefined,
        'request a new access token from /oauth/token',
      );
    if (tenant === '')
      throw new ApiError(
        400,
        'invalid_request',
        'the x-service-tenant header is required',
        'at $.headers.x-service-tenant',
      );
    if (!this.tenants.includes(tenant) || !caller.tenants.includes(tenant))
      throw new ApiError(
        403,
        'forbidden',
        'this access is not released for the tenant',
        undefined,
        'check the permissions of the access',
      );
    const rawKey = req.headers['idempotency-key'];
    const key = typeof rawKey === 'string' ? rawKey : undefined;
    if (route.auth === 'key' && (key === undefined || key === ''))
      throw new ApiError(
        428,
        'idempotency_required',
        'this call needs an Idempotency-Key header',
        undefined,
        'send a new key per operation',
      );
    if (key !== undefined && !KEY_PATTERN.test(key))
      throw new ApiError(
        400,
        'invalid_request',
        'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$',
        'at $.headers.idempotency-key',
      );
    if (key !== undefined && req.method !== 'GET') reply.idempotencyKey = key;
    const body = req.method === 'GET' || req.method === 'DELETE' ? undefined : await readJson(req);
    const call = {
      clientId: caller.clientId,
      tenant,
      body,
      query,
      params,
      requestId: reply.requestId,
      idempotencyKey: reply.idempotencyKey,
    };
    const handler = pick(route.operationId);
    if (route.auth !== 'key' || key === undefined) return reply.ok(handler(call, this.deps));
    // The record is keyed by client, tenant and the key as sent (case-sensitive); the fingerprint is the
    // operation, its path parameters and the canonical body. Only successes are kept: a refusal is not an
    // operation, so the key stays free for a corrected call.
    const slot = `${caller.clientId}|${tenant}|${key}`;
    const fingerprint = `${route.operationId}|${canonical(params)}|${canonical(body ?? null)}`;
    const known: IdemRecord | undefined = this.deps.store.idempotency.get(slot);
    if (known) {
      if (known.fingerprint !== fingerprint)
        throw new ApiError(
          409,
          'idempotency_conflict',
          'this Idempotency-Key was used with different content',
          undefined,
          'use a new key for each new operation',
        );
      if (this.originalRequestId) reply.requestId = known.requestId;
      return reply.ok(known.data, { replayed: true });
    }
    const data = handler(call, this.deps);
    this.deps.store.idempotency.set(slot, {
      fingerprint,
      status: 200,
      data: JSON.parse(JSON.stringify(data)),
      requestId: reply.requestId,
    });
    reply.ok(data);
  }
}
