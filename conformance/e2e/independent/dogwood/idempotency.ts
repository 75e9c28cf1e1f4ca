// The IdempotencyInterceptor: keys are scoped per tenant (any client of the tenant shares them), the
// fingerprint is method + route + canonical raw body, records live 24 h; concurrent calls with one key
// wait for the first one's result. Only successful answers are stored (a refused call may be retried).
import { ApiError, type Ctx, canonical, sha256 } from './util.ts';
import { KEY_PATTERN } from './validate.ts';

export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Entry {
  fingerprint: string;
  expiresAt: number;
  result: Promise<unknown>;
}

export class Idempotency {
  entries = new Map<string, Entry>();
  /** Keep refused answers (other than 400/401/403/429/500) under the key too. */
  replayRefusals = false;

  /** Reads and checks the Idempotency-Key header: 428 when missing, 400 when outside the pattern. */
  requireKey(ctx: Ctx): string {
    const raw = ctx.req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined || key === '') {
      throw new ApiError(
        428,
        'idempotency_required',
        'An idempotency key is mandatory for this call',
        'header Idempotency-Key missing',
        'Send an Idempotency-Key (POST /api/public/v1/idempotency-keys issues one)',
      );
    }
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(
        400,
        'invalid_request',
        'Request incomplete or unsuitable',
        'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$',
        'Use 8 to 128 letters, digits, dot, underscore, colon or hyphen',
      );
    }
    ctx.idempotencyKey = key;
    return key;
  }

  /** Runs the handler once per (tenant, key); a repeat with the same content gets the stored data. */
  async run<T>(ctx: Ctx, key: string, body: unknown, handler: () => Promise<T> | T): Promise<T> {
    const now = Date.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    const scope = `${ctx.tenant}\u0000${key}`;
    const fingerprint = sha256(`${ctx.req.method} ${ctx.path}\n${canonical(body ?? null)}`);
    const found = this.entries.get(scope);
    if (found) {
      if (found.fingerprint !== fingerprint) {
        throw new ApiError(
          409,
          'idempotency_conflict',
          'Same idempotency key with different content',
          'this key was used for another request body or route',
          'Use a new key for each new operation',
        );
      }
      ctx.replayed = true;
      return (await found.result) as T;
    }
    const result = Promise.resolve().then(handler);
    const entry: Entry = { fingerprint, expiresAt: now + KEY_TTL_MS, result };
    this.entries.set(scope, entry);
    try {
      const data = await result;
      ctx.replayed = false;
      return data;
    } catch (e) {
      const kept = this.replayRefusals && e instanceof ApiError && (e.status === 404 || e.status === 409);
      if (!kept) this.entries.delete(scope);
      else ctx.replayed = false;
      throw e;
    }
  }
}
