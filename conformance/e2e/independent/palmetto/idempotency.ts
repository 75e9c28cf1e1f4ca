// Idempotency of palmetto's modifying calls: a request filter reads Idempotency-Key, a table keyed by
// (tenant, key) keeps the operation's fingerprint and its first answer for 24 hours (the key's validity).
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, ok, type Rec, str } from './http.ts';

const PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Saved {
  fingerprint: string;
  data: Rec;
  expires: number;
}

/** Stable JSON (sorted keys), so a body with the same content in another member order is the same operation. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Rec;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export class Idempotency {
  private readonly saved = new Map<string, Saved>();

  /** The key of a modifying call: required (428), well formed (400). */
  key(ctx: Ctx): string {
    const key = ctx.req.headers['idempotency-key'];
    if (key === undefined || key === '') {
      throw new ApiError(428, 'idempotency_required', 'Idempotency-Key header is required for this operation.');
    }
    if (typeof key !== 'string' || !PATTERN.test(key)) {
      throw new ApiError(
        400,
        'invalid_request',
        'Idempotency-Key must match "^[A-Za-z0-9._:-]{8,128}$"',
        'header.Idempotency-Key',
      );
    }
    return key;
  }

  /**
   * Runs `op` once per (tenant, key): the same content answers the saved data again (replayed), other content
   * is a conflict. Runs synchronously after the body is read, so concurrent same-key calls see one winner.
   */
  run(ctx: Ctx, operation: string, op: () => Rec): void {
    const key = this.key(ctx);
    const slot = `${ctx.tenant}\u0000${key}`;
    const fingerprint = createHash('sha256')
      .update(`${operation}\n${ctx.url.pathname}\n${canonical(ctx.body ?? null)}`)
      .digest('hex');
    const now = Date.now();
    const hit = this.saved.get(slot);
    if (hit && hit.expires > now) {
      if (hit.fingerprint !== fingerprint) {
        throw new ApiError(409, 'idempotency_conflict', 'Idempotency-Key was already used with different content.');
      }
      ok(ctx, hit.data, { idempotencyKey: key, replayed: true });
      return;
    }
    const data = op();
    this.saved.set(slot, { fingerprint, data, expires: now + KEY_TTL_MS });
    ok(ctx, data, { idempotencyKey: key, replayed: false });
  }

  /** POST /idempotency-keys: a fresh key for an operation, and when it stops being honoured. */
  generate(ctx: Ctx, body: Rec): void {
    const operation = str(body, 'operation', 2, 80) ?? '';
    ok(ctx, {
      idempotencyKey: `idk:${randomUUID()}`,
      operation,
      expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString(),
    });
  }
}
