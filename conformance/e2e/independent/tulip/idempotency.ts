// The idempotency Kleisli: a modifying route runs once per (tenant, operation, key); the same key with the
// same content answers the stored data again (meta.replayed), other content is a conflict. Content is compared
// as canonical JSON (sorted keys), as the team hashes circe's `Json` with sorted keys.
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, header, invalid, ok, type Rec } from './http.ts';
import type { Store } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** Issued keys live a day; stored results as long (the team's TTL on the idempotency table). */
export const KEY_TTL_MS = 24 * 3600 * 1000;

/** Sorted-key JSON: RFC 8785 for the strings, integers, booleans and objects this service stores. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Rec;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined && o[k] !== null)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function requireKey(ctx: Ctx): string {
  const key = header(ctx, 'idempotency-key');
  if (key === undefined || key === '') {
    throw new ApiError(428, 'idempotency_required', 'Header Idempotency-Key is required for this call');
  }
  if (!KEY_PATTERN.test(key)) throw invalid('Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
  return key;
}

/** Runs `effect` once per key; answers the first result again for a repeat with the same content. */
export function idempotent(store: Store, ctx: Ctx, operation: string, key: string, effect: () => unknown): void {
  const slot = `${ctx.tenant}|${operation}|${key}`;
  const fingerprint = createHash('sha256')
    .update(canonical(ctx.body ?? null))
    .digest('hex');
  const seen = store.idempotency.get(slot);
  if (seen) {
    if (seen.fingerprint !== fingerprint) {
      throw new ApiError(409, 'idempotency_conflict', 'Idempotency-Key was used with different content');
    }
    ok(ctx, seen.data, { idempotencyKey: key, replayed: true });
    return;
  }
  const data = effect();
  store.idempotency.set(slot, { fingerprint, data, status: 200 });
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

/** POST /idempotency-keys: a fresh key bound to nothing but its expiry (the operation is echoed). */
export function issueKey(ctx: Ctx): void {
  const body = (ctx.body ?? {}) as Rec;
  const op = body.operation;
  if (typeof op !== 'string' || op.length < 2 || op.length > 80) {
    throw invalid('operation: string of length 2 to 80');
  }
  const expiresAt = ctx.now(Date.now() + KEY_TTL_MS);
  ok(ctx, { idempotencyKey: randomUUID(), operation: op, expiresAt });
}
