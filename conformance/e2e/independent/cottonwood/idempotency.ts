// Idempotency-Key handling for modifying calls: keys are scoped per tenant and route, the content is
// fingerprinted, and the first success is kept so a repeat replays it instead of acting twice.
import { createHash } from 'node:crypto';
import { type Ctx, HttpError, header, type Rec } from './http.ts';

export const KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';
/** How long a stored result (and an issued key) is honoured: Stripe's 24 h, the common habit. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

interface Stored {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

/** Sorted-key JSON, so `{a,b}` and `{b,a}` are the same content. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Rec;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export class IdempotencyStore {
  private entries = new Map<string, Stored>();

  /** The key of the call, refused with 428 when absent and 400 when it breaks the pattern. */
  requireKey(ctx: Ctx): string {
    const key = header(ctx, 'idempotency-key');
    if (key === undefined || key === '') {
      throw new HttpError(
        428,
        'idempotency_required',
        'Header Idempotency-Key is required for this call',
        undefined,
        'Send a fresh key, e.g. from POST /idempotency-keys',
      );
    }
    if (!new RegExp(KEY_PATTERN).test(key)) {
      throw new HttpError(400, 'invalid_request', 'Idempotency-Key is malformed', `Expected ${KEY_PATTERN}`);
    }
    return key;
  }

  /**
   * Runs `act` once per (tenant, route, key): a repeat with the same content gets the stored data
   * (replayed), with other content a 409. `act` is synchronous, so concurrent repeats cannot both act.
   */
  run(ctx: Ctx, key: string, body: unknown, act: () => unknown): { data: unknown; meta: Rec } {
    const scope = `${ctx.tenant ?? '-'}|${ctx.method} ${ctx.path}|${key}`;
    const fingerprint = createHash('sha256').update(canonical(body)).digest('hex');
    const now = Date.now();
    const hit = this.entries.get(scope);
    if (hit && hit.expiresAt > now) {
      if (hit.fingerprint !== fingerprint) {
        throw new HttpError(
          409,
          'idempotency_conflict',
          'This Idempotency-Key was used with different content',
          undefined,
          'Use a new key for each new operation',
        );
      }
      // A replay is a call of its own: its own requestId, the first answer's data.
      return { data: hit.data, meta: { idempotencyKey: key, replayed: true } };
    }
    const data = act();
    this.entries.set(scope, { fingerprint, data, expiresAt: now + KEY_TTL_MS });
    return { data, meta: { idempotencyKey: key } };
  }
}
