// Idempotency keys: a stored answer per (tenant, key), fingerprinted by method, path and the decoded body
// (aeson `Value` equality, so key order and whitespace do not matter). Only successful answers are kept,
// so a refused request can be corrected and sent again under the same key.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, fail, type Rec } from './http.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** How long a key (issued or used) is remembered. */
export const KEY_TTL_SECONDS = 24 * 3600;

interface Stored {
  fingerprint: string;
  data: Rec;
  expires: number;
}

/** Sorted-key JSON, so two bodies that decode to the same value share a fingerprint. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Rec;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export class IdempotencyStore {
  private readonly stored = new Map<string, Stored>();

  /** Reads and checks the header: 428 when absent, 400 when it breaks the published pattern. */
  requireKey(ctx: Ctx): string {
    const raw = ctx.req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined || key === '') {
      throw new ApiError(428, 'idempotency_required', 'an Idempotency-Key header is required', 'send the key');
    }
    if (!KEY_PATTERN.test(key)) throw fail.badRequest('Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
    ctx.idempotencyKey = key;
    return key;
  }

  /**
   * Runs `produce` once per (tenant, key, content): a repeat gets the stored data back (replayed), other
   * content under the same key is a conflict. `produce` is synchronous, so concurrent repeats cannot race.
   */
  run(ctx: Ctx, tenant: string, key: string, body: unknown, produce: () => Rec): { data: Rec; replayed: boolean } {
    const id = `${tenant}\u0000${key}`;
    const fingerprint = createHash('sha256')
      .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(body)}`)
      .digest('hex');
    const now = Date.now();
    const hit = this.stored.get(id);
    if (hit && hit.expires > now) {
      if (hit.fingerprint !== fingerprint) {
        throw new ApiError(409, 'idempotency_conflict', 'this key was used with different content', 'use a new key');
      }
      return { data: hit.data, replayed: true };
    }
    const data = produce();
    this.stored.set(id, { fingerprint, data, expires: now + KEY_TTL_SECONDS * 1000 });
    return { data, replayed: false };
  }
}

/** A fresh key for POST /idempotency-keys: a prefix naming the operation's family, then 24 random bytes. */
export function newKey(): string {
  return `idk_${randomBytes(24).toString('base64url')}`;
}
