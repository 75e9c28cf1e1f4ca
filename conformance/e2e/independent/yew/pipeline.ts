// The request pipeline every API call passes: api-version negotiation, bearer authentication, the tenant
// header, rate limiting, and the Idempotency-Key filter for modifying calls. Shared state lives in App.

import type { AuditLog } from './audit.ts';
import type { Auth } from './auth.ts';
import type { Ctx } from './http-util.ts';
import { invalid, meta, readBody, sendError, sendJson, setHeader } from './http-util.ts';
import { fingerprint, type IdempotencyStore, KEY_PATTERN } from './idempotency.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { StreamHub } from './stream.ts';
import { type Errors, parseObject } from './validate.ts';
import type { Webhooks } from './webhooks.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export interface App {
  auth: Auth;
  limiter: RateLimiter;
  idem: IdempotencyStore;
  hub: StreamHub;
  audit: AuditLog;
  webhooks: Webhooks;
  connections: Map<string, Connection[]>;
  activationMs: number;
  timers: Set<NodeJS.Timeout>;
  redactKeyOnReplay: boolean;
  /** The delivery log's page size when $top is not sent. */
  deliveryPageSize: number;
  /** The largest audit page (limit above it: 400, as ASP.NET OData refuses a $top over MaxTop). */
  auditMaxPage: number;
}

export interface Caller {
  clientId: string;
  tenant: string;
  tokenExpiresAt: number;
}

/** Authenticates, reads the tenant and counts the call; answers the refusal itself and returns undefined. */
export function guard(app: App, ctx: Ctx): Caller | undefined {
  const principal = app.auth.authenticate(ctx.req.headers.authorization);
  if (!principal) {
    setHeader(ctx, 'www-authenticate', 'Bearer error="invalid_token"');
    sendError(ctx, 401, 'unauthorized', { hint: 'Request a new access token from /connect/token.' });
    return undefined;
  }
  const tenant = String(ctx.req.headers['x-service-tenant'] ?? '').trim();
  const rate = app.limiter.take(`${principal.clientId}|${tenant || '-'}|sandbox`);
  for (const [k, v] of Object.entries(rate.headers)) setHeader(ctx, k, v);
  if (!rate.allowed) {
    sendError(ctx, 429, 'rate_limited', {
      detail: `Retry after ${rate.headers['retry-after']} s.`,
      hint: 'Respect Retry-After and retry with growing intervals.',
    });
    return undefined;
  }
  if (!tenant) {
    invalid(ctx, { 'x-service-tenant': ['The x-service-tenant header is required.'] });
    return undefined;
  }
  if (app.auth.tenantStatus(tenant) !== 'released') {
    sendError(ctx, 403, 'forbidden', { detail: 'The access is not released for this tenant.' });
    return undefined;
  }
  return { clientId: principal.clientId, tenant, tokenExpiresAt: principal.expiresAt };
}

/** A replayed registration may leave its signing key out: the key is issued exactly once. */
function replayData(app: App, data: unknown): unknown {
  if (!app.redactKeyOnReplay || !data || typeof data !== 'object' || !('signingKey' in data)) return data;
  const { signingKey: _key, ...rest } = data as Record<string, unknown>;
  return { ...rest, signingKeyIssued: 'already issued: shown once in the first answer' };
}

export interface Outcome {
  status: number;
  data: unknown;
}

/**
 * A modifying call: the key (required or optional), the JSON body, replay or conflict, then `run`, which
 * validates and either returns the 200 outcome to store or answers a refusal itself (undefined).
 */
export async function keyed(
  app: App,
  ctx: Ctx,
  caller: Caller,
  route: string,
  required: boolean,
  run: (body: Record<string, unknown>) => Outcome | undefined,
  bodyless = false,
): Promise<void> {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    if (required) {
      sendError(ctx, 428, 'idempotency_required', {
        hint: 'Send an Idempotency-Key header (POST /api/public/v1/idempotency-keys issues one).',
      });
      return;
    }
  } else if (!KEY_PATTERN.test(key)) {
    invalid(ctx, { 'Idempotency-Key': ['The key must match ^[A-Za-z0-9._:-]{8,128}$.'] });
    return;
  }
  const text = await readBody(ctx.req);
  if (text === undefined) {
    invalid(ctx, { $: ['The request body is too large.'] });
    return;
  }
  let body: Record<string, unknown> = {};
  if (!bodyless || text.trim() !== '') {
    const errors: Errors = {};
    const parsed = parseObject(text, errors);
    if (!parsed) {
      invalid(ctx, errors);
      return;
    }
    body = parsed;
  }
  const print = fingerprint(ctx.req.method ?? 'POST', route, body);
  if (key) {
    const stored = app.idem.lookup(caller.clientId, caller.tenant, key);
    if (stored && stored.fingerprint !== print) {
      sendError(ctx, 409, 'idempotency_conflict', { hint: 'Use a new key for each new operation.' });
      return;
    }
    if (stored) {
      sendJson(ctx, stored.status, {
        ok: true,
        data: replayData(app, stored.data),
        meta: meta(ctx, { idempotencyKey: key, replayed: true }),
      });
      return;
    }
  }
  const outcome = run(body);
  if (!outcome) return;
  if (key) app.idem.save(caller.clientId, caller.tenant, key, { fingerprint: print, ...outcome });
  sendJson(ctx, outcome.status, {
    ok: true,
    data: outcome.data,
    meta: meta(ctx, key ? { idempotencyKey: key, replayed: false } : {}),
  });
}
