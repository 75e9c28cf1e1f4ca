// Idempotency records, one per (client, tenant, key), kept 24 h like a Cosmos container with a TTL.
// Only successful operations are recorded: a refused call stores nothing, so the key stays usable.
import { ApiError } from './http-kit.ts';
import { canonicalJson, sha256Hex } from './util.ts';

export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

interface Recorded {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export interface IdempotencyStore {
  /** The recorded answer's data for a replay, undefined for a new operation; throws on a conflict. */
  lookup(scope: string, key: string, fingerprint: string): { data: unknown } | undefined;
  record(scope: string, key: string, fingerprint: string, data: unknown): void;
}

export function fingerprint(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method} ${path}\n${canonicalJson(body)}`);
}

export function createIdempotencyStore(): IdempotencyStore {
  const records = new Map<string, Recorded>();
  return {
    lookup(scope, key, fp) {
      const r = records.get(`${scope}\u0000${key}`);
      if (!r || r.expiresAt <= Date.now()) return undefined;
      if (r.fingerprint !== fp) {
        throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with different content.', {
          target: 'Idempotency-Key',
          hint: 'Use a new key for each new operation.',
        });
      }
      return { data: r.data };
    },
    record(scope, key, fp, data) {
      records.set(`${scope}\u0000${key}`, { fingerprint: fp, data, expiresAt: Date.now() + KEY_TTL_MS });
    },
  };
}
