// Idempotency records of ebony: per access, tenant and key, the fingerprint of the first call's content and
// its answer; keys issued by POST /idempotency-keys carry an expiry (24 h).
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, canonical, nowIso } from './http.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Record_ {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export class IdempotencyStore {
  private readonly records = new Map<string, Record_>();

  /** The key of a modifying call: 428 when missing, 400 when it breaks the pattern. */
  static key(header: string | string[] | undefined): string {
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) {
      throw new ApiError(
        'idempotency_required',
        'An idempotency key is mandatory for this call.',
        'Idempotency-Key',
        'Send the header Idempotency-Key.',
      );
    }
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError('invalid_request', 'Header Idempotency-Key is malformed.', 'pattern ^[A-Za-z0-9._:-]{8,128}$');
    }
    return key;
  }

  static fingerprint(method: string, path: string, body: unknown): string {
    return createHash('sha256')
      .update(`${method} ${path}\n${canonical(body)}`)
      .digest('hex');
  }

  /** The earlier answer for the same content, undefined for a new key; 409 for different content. */
  lookup(scope: string, key: string, fingerprint: string): { data: unknown } | undefined {
    const r = this.records.get(`${scope}|${key}`);
    if (!r || r.expiresAt <= Date.now()) return undefined;
    if (r.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'Same idempotency key with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    return { data: r.data };
  }

  store(scope: string, key: string, fingerprint: string, data: unknown): void {
    this.records.set(`${scope}|${key}`, { fingerprint, data, expiresAt: Date.now() + KEY_TTL_MS });
  }

  /** A fresh key for an operation: IK + 24 upper-case hex digits. */
  static issue(operation: string) {
    return {
      idempotencyKey: `IK${randomBytes(12).toString('hex').toUpperCase()}`,
      operation,
      expiresAt: nowIso(Date.now() + KEY_TTL_MS),
    };
  }
}
