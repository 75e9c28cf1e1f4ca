// Idempotency records (a Panache entity keyed by client, tenant and key): the first successful answer of a
// modifying call is stored with the fingerprint of its request (method, path template, canonical body) for
// 24 h. The same key and fingerprint replays the stored data; another fingerprint is idempotency_conflict.
// Refusals are not stored: the key stays free for a corrected request.
import { ApiError, type Ctx, canonical, KEY_PATTERN, sha256Hex, uuid } from './util.ts';

export const KEY_TTL_MS = 24 * 3600 * 1000;

interface StoredAnswer {
  fingerprint: string;
  data: unknown;
  expires: number;
}

export class IdempotencyStore {
  private records = new Map<string, StoredAnswer>();

  /** The key of a modifying call: 428 when missing, 400 when it breaks the pattern. */
  requireKey(ctx: Ctx): string {
    const key = ctx.idempotencyKey;
    if (key === undefined || key === '')
      throw new ApiError(
        428,
        'idempotency_required',
        'An idempotency key is mandatory for this call',
        'Idempotency-Key: header missing',
        'Send an Idempotency-Key header (POST /api/public/v1/idempotency-keys issues one)',
      );
    if (!KEY_PATTERN.test(key))
      throw new ApiError(
        400,
        'invalid_request',
        'Request incomplete or unsuitable',
        'Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$',
      );
    return key;
  }

  /**
   * Runs op once per key: a stored answer with the same fingerprint is replayed (replayed true), another
   * fingerprint throws the conflict. op runs synchronously, so concurrent copies cannot both run it.
   */
  run<T>(
    ctx: Ctx,
    key: string,
    operation: string,
    body: unknown,
    op: () => T,
    onReplay?: (data: T) => T,
  ): { data: T; replayed: boolean } {
    const scope = `${ctx.clientId}\u0000${ctx.tenant}\u0000${key}`;
    const fingerprint = sha256Hex(`${operation}\n${canonical(body)}`);
    const now = Date.now();
    const found = this.records.get(scope);
    if (found && found.expires > now) {
      if (found.fingerprint !== fingerprint)
        throw new ApiError(
          409,
          'idempotency_conflict',
          'Same idempotency key with different content',
          'The key was used for another request',
          'Use a new key for each new operation',
        );
      const data = found.data as T;
      return { data: onReplay ? onReplay(data) : data, replayed: true };
    }
    const data = op();
    this.records.set(scope, { fingerprint, data, expires: now + KEY_TTL_MS });
    return { data, replayed: false };
  }

  /** POST /idempotency-keys: a fresh key (not reserved: any valid key is accepted on a modifying call). */
  issue(operation: string): { idempotencyKey: string; operation: string; expiresAt: string } {
    const key = `hwk.${operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 40)}.${uuid().replace(/-/g, '')}`;
    return { idempotencyKey: key, operation, expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString() };
  }
}
