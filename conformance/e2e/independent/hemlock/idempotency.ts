// Idempotency keys: stored per access, tenant and key (the exact string: keys are case-sensitive) for
// 48 hours. The fingerprint is method, path and the canonical JSON body (object keys sorted), so the same
// content in another key order still replays. Only successful answers are stored: a refusal changes
// nothing, so the same key may be used again once the request is corrected.
import { createHash } from 'node:crypto';
import type { ErrorSpec } from './http-kit.ts';

export const KEY_TTL_MS = 48 * 60 * 60 * 1000;

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  data: unknown;
  /** A refusal kept under the key (only with the replayRefusals option). */
  error?: ErrorSpec;
  expiresAt: number;
}

export interface IdempotencyStore {
  get(scope: string): StoredAnswer | undefined;
  put(scope: string, answer: StoredAnswer): void;
}

export function createIdempotencyStore(): IdempotencyStore {
  const map = new Map<string, StoredAnswer>();
  return {
    get(scope) {
      const a = map.get(scope);
      if (a && a.expiresAt <= Date.now()) {
        map.delete(scope);
        return undefined;
      }
      return a;
    },
    put(scope, answer) {
      map.set(scope, answer);
    },
  };
}

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest('hex');
}

export const scopeOf = (clientId: string, tenant: string, key: string): string =>
  `${clientId}\u0000${tenant}\u0000${key}`;
