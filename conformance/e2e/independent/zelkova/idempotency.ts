// Idempotency records, like zelkova's `idempotency_keys` table: unique (client, tenant, key), a fingerprint of
// method, path and canonical body, the stored answer's data, 24 h. Only successful answers are stored, so a
// refused call can be repeated with the same key once fixed.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, header } from './http-kit.ts';
import { idempotencyKeyForm } from './validate.ts';

export const DEFAULT_KEY_TTL_MS = 86_400_000;

interface StoredAnswer {
  fingerprint: string;
  data: unknown;
  /** A business refusal stored Stripe-style (storeRefusals): replayed as the same refusal. */
  refusal?: ApiError;
  expires: number;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export class IdempotencyStore {
  records = new Map<string, StoredAnswer>();
  storeRefusals: boolean;
  /** 'client': one key space per access; the tenant header then counts as content (409 under another tenant). */
  scope: 'tenant' | 'client';

  ttlMs: number;

  constructor(storeRefusals = false, scope: 'tenant' | 'client' = 'tenant', ttlMs = DEFAULT_KEY_TTL_MS) {
    this.storeRefusals = storeRefusals;
    this.scope = scope;
    this.ttlMs = ttlMs;
  }

  /** The key of a modifying call: 428 when missing (and required), 400 when malformed. */
  key(ctx: Ctx, required: boolean): string | undefined {
    const key = header(ctx.req, 'idempotency-key');
    if (key === undefined || key === '') {
      if (!required) return undefined;
      throw new ApiError(
        428,
        'idempotency_required',
        'an idempotency key is mandatory for this call',
        undefined,
        'send the header Idempotency-Key',
      );
    }
    idempotencyKeyForm(key);
    return key;
  }

  /**
   * Runs `op` once per key: a repeat with the same content gets the stored data (replayed), other content 409.
   * `op` is synchronous, so concurrent calls with one key cannot both run it.
   */
  run(ctx: Ctx, key: string | undefined, body: unknown, op: () => unknown): { data: unknown; replayed: boolean } {
    if (!key || !ctx.access) return { data: op(), replayed: false };
    const perClient = this.scope === 'client';
    const id = perClient ? `${ctx.access.clientId}|${key}` : `${ctx.access.clientId}|${ctx.access.tenant}|${key}`;
    const tenantPart = perClient ? `${ctx.access.tenant}\n` : '';
    const fingerprint = createHash('sha256')
      .update(`${tenantPart}${ctx.method} ${ctx.path}\n${canonical(body)}`)
      .digest('hex');
    const found = this.records.get(id);
    if (found && found.expires > Date.now()) {
      if (found.fingerprint !== fingerprint) {
        throw new ApiError(
          409,
          'idempotency_conflict',
          'same idempotency key with different content',
          undefined,
          'use a new key for each new operation',
        );
      }
      if (found.refusal) {
        const e = new ApiError(
          found.refusal.status,
          found.refusal.code,
          found.refusal.message,
          found.refusal.detail,
          found.refusal.hint,
        );
        e.meta = { idempotencyKey: key, replayed: true };
        throw e;
      }
      return { data: structuredClone(found.data), replayed: true };
    }
    let data: unknown;
    try {
      data = structuredClone(op());
    } catch (e) {
      // Stripe's rule: a refusal after validation (404, 409) is the operation's result and is kept.
      if (this.storeRefusals && e instanceof ApiError && (e.status === 404 || e.code === 'capability_denied')) {
        this.records.set(id, { fingerprint, data: null, refusal: e, expires: Date.now() + this.ttlMs });
      }
      throw e;
    }
    this.records.set(id, { fingerprint, data, expires: Date.now() + this.ttlMs });
    return { data, replayed: false };
  }
}
