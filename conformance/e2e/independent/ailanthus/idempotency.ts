// Idempotency as an IDEMPOTENCY_KEYS table keyed by (tenant, key): the request's fingerprint (method, path
// and the body's canonical SHA-256) and the stored response. Same key, same content: the stored answer again,
// with meta.replayed; same key, other content: 409. Only successful answers are stored (a refused call did
// nothing, so repeating it must be judged afresh).
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, jsonb, offsetDateTime, type Rec, send } from './http.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** Keys are kept 24 hours (the contract leaves the validity open). */
export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Stored {
  fingerprint: string;
  data: Rec;
  expires: number;
}

const tables = new WeakMap<object, Map<string, Stored>>();

function table(owner: object): Map<string, Stored> {
  let t = tables.get(owner);
  if (!t) {
    t = new Map();
    tables.set(owner, t);
  }
  return t;
}

/** The Idempotency-Key header of a modifying call: 428 when absent, 400 when it breaks the pattern. */
export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') {
    throw new ApiError(428, 'idempotency_required', 'Header Idempotency-Key is required for this call');
  }
  if (!KEY_PATTERN.test(key)) throw new ApiError(400, 'invalid_request', 'Idempotency-Key does not match the pattern');
  return key;
}

/**
 * Runs `create` once per (tenant, key, content); a repeat answers the stored data with replayed: true.
 * Synchronous between lookup and store, so concurrent repeats of one key cannot both create.
 */
export function idempotent(owner: object, ctx: Ctx, key: string, body: Rec, create: () => Rec): void {
  const t = table(owner);
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname} ${JSON.stringify(jsonb(body))}`)
    .digest('hex');
  const id = `${ctx.tenant}|${key}`;
  const found = t.get(id);
  if (found && found.expires > Date.now()) {
    if (found.fingerprint !== fingerprint) {
      throw new ApiError(409, 'idempotency_conflict', 'The key was used with different content');
    }
    send(ctx, 200, { ok: true, data: found.data, meta: meta(ctx, key, true) });
    return;
  }
  const data = create();
  t.set(id, { fingerprint, data, expires: Date.now() + KEY_TTL_MS });
  send(ctx, 200, { ok: true, data, meta: meta(ctx, key, false) });
}

function meta(ctx: Ctx, key: string, replayed: boolean): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: offsetDateTime(), idempotencyKey: key, replayed };
}

/** POST /idempotency-keys: a key for the named operation, with its expiry. */
export function issueKey(operation: string): Rec {
  return {
    idempotencyKey: `${operation.replace(/[^A-Za-z0-9._:-]/g, '-')}:${randomUUID()}`.slice(0, 128),
    operation,
    expiresAt: offsetDateTime(Date.now() + KEY_TTL_MS),
  };
}
