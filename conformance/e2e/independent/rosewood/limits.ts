// Redis-backed sliding-window rate limiting (a ZSET of call times per client, tenant and environment,
// ZREMRANGEBYSCORE then ZCARD), and the idempotency cache a Vapor middleware keeps in Redis.
import { createHash } from 'node:crypto';
import { swiftSortedJson } from './audit.ts';
import { Abort, type Ctx, isoDate, jsonBody, ok, type Rec, uuid } from './http.ts';
import type { Store } from './state.ts';
import { KEY_PATTERN, string, validate } from './validation.ts';

const KEY_TTL_MS = 24 * 3600_000;

/** Counts this call; sets the headers on every counted answer and throws 429 once the window is full. */
export function rateLimit(ctx: Ctx, store: Store): void {
  const { rateLimit: limit, windowMs } = store.options;
  const now = Date.now();
  const bucket = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const hits = (store.hits.get(bucket) ?? []).filter((t) => t > now - windowMs);
  store.hits.set(bucket, hits);
  ctx.headers['x-ratelimit-limit'] = String(limit);
  if (hits.length >= limit) {
    const oldest = hits[0] ?? now;
    const wait = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    ctx.headers['x-ratelimit-remaining'] = '0';
    throw new Abort(429, 'Rate limit exceeded.', {
      hint: `Retry after ${wait} second(s), with growing intervals.`,
      headers: { 'retry-after': String(wait) },
    });
  }
  hits.push(now);
  ctx.headers['x-ratelimit-remaining'] = String(limit - hits.length);
}

/** The Idempotency-Key header, required and well-formed on the calls that create something. */
export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (key === undefined || key === '') {
    throw new Abort(428, 'Header Idempotency-Key is required for this call.', { hint: 'Send an Idempotency-Key.' });
  }
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw new Abort(400, 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.');
  }
  return key;
}

/** The body's content, not its bytes: members re-encoded with sorted keys, as JSONEncoder(.sortedKeys) would. */
function canonicalBody(raw: string): string {
  try {
    return swiftSortedJson(JSON.parse(raw));
  } catch {
    return raw;
  }
}

/**
 * Runs `handler` once per (tenant, route, key): a repeat with the same body gets the stored answer with
 * `replayed: true`; a different body is a conflict. Only successes are stored, so a refused call may be retried.
 */
export async function idempotent(ctx: Ctx, store: Store, handler: () => Promise<unknown> | unknown): Promise<void> {
  const key = requireKey(ctx);
  const slot = `${ctx.tenant}|${ctx.method} ${ctx.path}|${key}`;
  const fingerprint = createHash('sha256').update(canonicalBody(ctx.rawBody)).digest('hex');
  const seen = store.idempotency.get(slot);
  if (seen) {
    if (seen.fingerprint !== fingerprint) {
      throw new Abort(409, 'This Idempotency-Key was used with different content.', {
        hint: 'Use a new key for each new operation.',
      });
    }
    return ok(ctx, seen.data, { idempotencyKey: key, replayed: true });
  }
  const data = await handler();
  store.idempotency.set(slot, { fingerprint, status: 200, data, meta: {} });
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

/** POST /idempotency-keys: a fresh key for the named operation, valid for 24 hours. */
export function issueKey(ctx: Ctx, store: Store): void {
  const body = jsonBody(ctx);
  validate(body, [string('operation', 2, 80)]);
  const result: Rec = {
    idempotencyKey: `idem_${uuid()}`,
    operation: body.operation,
    expiresAt: isoDate(Date.now() + KEY_TTL_MS),
  };
  store.issuedKeys.set(result.idempotencyKey, result);
  ok(ctx, result);
}
