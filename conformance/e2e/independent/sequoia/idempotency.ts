// Idempotency records per tenant and key: the fingerprint is method, path and canonical body; a stored
// success is answered again unchanged with meta.replayed true. Refusals are not stored (nothing happened).
import { createHash, randomBytes } from 'node:crypto';
import { canonical, type Exchange, header, KEY_PATTERN, Refusal } from './http-kit.ts';

interface Stored {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export const KEY_TTL_MS = 24 * 3600 * 1000;

export function createIdempotencyStore() {
  const records = new Map<string, Stored>();
  return {
    /** Reads and checks the Idempotency-Key header; `required` false lets a missing key through. */
    key(ex: Exchange, required: boolean): string | undefined {
      const key = header(ex.req, 'idempotency-key');
      if (key === undefined) {
        if (required) throw new Refusal('idempotency_required', 'Idempotency-Key header is required for this call');
        return undefined;
      }
      if (!KEY_PATTERN.test(key)) {
        throw new Refusal(
          'invalid_request',
          'Lens failed: Idempotency-Key',
          'Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$',
        );
      }
      return key;
    },
    /** A replay's stored data, or undefined when the key is new; a conflict throws. */
    lookup(tenant: string, key: string, method: string, path: string, body: unknown): { data: unknown } | undefined {
      const fingerprint = createHash('sha256')
        .update(`${method} ${path} ${canonical(body)}`)
        .digest('hex');
      const r = records.get(`${tenant}\u0000${key}`);
      if (!r || r.expiresAt < Date.now()) return undefined;
      if (r.fingerprint !== fingerprint) {
        throw new Refusal(
          'idempotency_conflict',
          'Idempotency-Key was used with different content',
          'use a new key for each new operation',
        );
      }
      return { data: r.data };
    },
    store(tenant: string, key: string, method: string, path: string, body: unknown, data: unknown): void {
      const fingerprint = createHash('sha256')
        .update(`${method} ${path} ${canonical(body)}`)
        .digest('hex');
      records.set(`${tenant}\u0000${key}`, { fingerprint, data, expiresAt: Date.now() + KEY_TTL_MS });
    },
    generate(operation: string) {
      const op = operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 40);
      return {
        idempotencyKey: `${op}:${randomBytes(12).toString('hex')}`,
        operation,
        expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString(),
      };
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
