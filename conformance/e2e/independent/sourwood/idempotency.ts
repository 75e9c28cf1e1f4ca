// Idempotency as the Lua original keeps it in Redis: `SET idem:<tenant>:<key> <fingerprint+response> NX EX
// 86400`. The fingerprint is ngx.md5 of method, path and the raw body; only successes are stored, so a
// refused call can be corrected and sent again under its key. Node runs one handler at a time: the lookup and
// the store happen with no await between them, as SET NX makes them atomic in Redis.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, ok, type Rec } from './http.ts';

const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_S = 86_400;

/**
 * The same content, not the same bytes: JSON members carry no order (RFC 8259), so the body is re-encoded with
 * sorted keys before hashing (the team's `cjson.encode` of a key-sorted table).
 */
function canonical(raw: string): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Rec)[k])]),
      );
    }
    return v;
  };
  try {
    return JSON.stringify(sort(JSON.parse(raw)));
  } catch {
    return raw;
  }
}

interface Entry {
  fingerprint: string;
  data: Rec;
  expires: number;
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  readonly issued = new Map<string, Rec>();

  /** The key of a modifying call, or 428 / 400 (the Limits pattern). */
  key(ctx: Ctx): string {
    const k = ctx.req.headers['idempotency-key'];
    if (k === undefined || k === '') {
      throw new ApiError(428, 'idempotency_required', 'header Idempotency-Key is required for this call');
    }
    if (typeof k !== 'string' || !KEY_PATTERN.test(k)) {
      throw new ApiError(400, 'invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
    }
    return k;
  }

  /**
   * Runs `effect` once per tenant and key: a repeat with the same fingerprint answers the stored data
   * (meta.replayed true), a different one 409 idempotency_conflict.
   */
  run(ctx: Ctx, tenant: string, raw: string, effect: () => Rec): void {
    const key = this.key(ctx);
    ctx.idempotencyKey = key;
    const fingerprint = createHash('md5')
      .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(raw)}`)
      .digest('hex');
    const slot = `idem:${tenant}:${key}`;
    const now = Date.now();
    const hit = this.entries.get(slot);
    if (hit && hit.expires > now) {
      if (hit.fingerprint !== fingerprint) {
        throw new ApiError(409, 'idempotency_conflict', 'this Idempotency-Key was used with different content');
      }
      ctx.replayed = true;
      ok(ctx, hit.data);
      return;
    }
    const data = effect();
    this.entries.set(slot, { fingerprint, data, expires: now + KEY_TTL_S * 1000 });
    ctx.replayed = false;
    ok(ctx, data);
  }

  /** POST /idempotency-keys: a fresh key (UUID-like, as resty.jit-uuid makes them) with its expiry. */
  issue(operation: string): Rec {
    const key = `idk_${randomBytes(16).toString('hex')}`;
    const rec = { idempotencyKey: key, operation, expiresAt: new Date(Date.now() + KEY_TTL_S * 1000).toISOString() };
    this.issued.set(key, rec);
    return rec;
  }
}
