// Idempotency-Key handling of the modifying calls: scoped per access, tenant and operation (method and
// route), fingerprinted over the canonical body; only answers the operation completed are stored, so a
// refused body may be corrected and sent again under the same key.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx } from './http-util.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
const TTL_MS = 24 * 3600 * 1000;

interface Stored {
  fingerprint: string;
  status: number;
  data: unknown;
  headers: Record<string, string>;
  at: number;
  /** A stored refusal (YARROW_STORE_REFUSALS): replayed as the same failure. */
  error?: ApiError;
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
  return JSON.stringify(v);
}

export function createIdempotency() {
  const store = new Map<string, Stored>();
  return {
    /** The key of a modifying call: 428 when missing, 400 when it breaks the pattern. */
    require(ctx: Ctx): string {
      const raw = ctx.req.headers['idempotency-key'];
      if (raw === undefined || raw === '') {
        throw new ApiError(
          'idempotency_required',
          'Idempotency-Key: This header is required for modifying calls.',
          'Send an Idempotency-Key (POST /idempotency-keys issues one).',
        );
      }
      const key = Array.isArray(raw) ? raw.join(',') : raw;
      if (!KEY.test(key)) {
        throw new ApiError('invalid_request', 'Idempotency-Key: This value should match ^[A-Za-z0-9._:-]{8,128}$.');
      }
      ctx.idempotencyKey = key;
      return key;
    },
    /** A stored answer for this key and content, 409 for other content, undefined for a new operation. */
    lookup(ctx: Ctx, operation: string, body: unknown): { stored?: Stored; slot: string; fingerprint: string } {
      const slot = `${ctx.clientId}|${ctx.tenant}|${operation}|${ctx.idempotencyKey}`;
      const fingerprint = createHash('sha256').update(canonical(body)).digest('hex');
      const stored = store.get(slot);
      if (stored && Date.now() - stored.at > TTL_MS) store.delete(slot);
      else if (stored && stored.fingerprint !== fingerprint) {
        throw new ApiError(
          'idempotency_conflict',
          'This key was used for this operation with a different body.',
          'Use a new key for each new operation.',
        );
      }
      return { stored: store.get(slot), slot, fingerprint };
    },
    save(slot: string, fingerprint: string, data: unknown, headers: Record<string, string> = {}) {
      store.set(slot, { fingerprint, status: 200, data, headers, at: Date.now() });
    },
    saveRefusal(slot: string, fingerprint: string, error: ApiError) {
      store.set(slot, { fingerprint, status: 0, data: null, headers: {}, at: Date.now(), error });
    },
  };
}
export type Idempotency = ReturnType<typeof createIdempotency>;
