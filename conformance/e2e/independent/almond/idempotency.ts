// Idempotency keys in a shared local map, scoped to (client, tenant, key): the fingerprint of method, path and
// canonical body; a replay answers the stored payload with meta.replayed; other content is a conflict. Only
// successes are stored, so a refused call may be repeated under the same key.
import type { Reply } from './types.ts';
import { badRequest, canonicalJson, conflict, sha256Hex } from './util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

interface Stored {
  fingerprint: string;
  reply: Reply;
  storedAt: number;
}

export class IdempotencyStore {
  private readonly map = new Map<string, Stored>();
  private readonly ttlMs: number;
  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  static validate(key: string): void {
    if (!KEY_PATTERN.test(key))
      throw badRequest('Invalid header Idempotency-Key: does not match pattern ^[A-Za-z0-9._:-]{8,128}$');
  }

  static fingerprint(method: string, path: string, body: unknown): string {
    return sha256Hex(`${method} ${path}\n${canonicalJson(body ?? null)}`);
  }

  /** The stored reply for a replay, undefined for a first call; a conflict throws. */
  lookup(scope: string, key: string, fingerprint: string): Reply | undefined {
    const id = `${scope}\u0000${key}`;
    const hit = this.map.get(id);
    if (!hit) return undefined;
    if (Date.now() - hit.storedAt > this.ttlMs) {
      this.map.delete(id);
      return undefined;
    }
    if (hit.fingerprint !== fingerprint)
      throw conflict(
        'idempotency_conflict',
        `Idempotency-Key ${key} was already used with different content`,
        'Use a new key for each new operation',
      );
    return hit.reply;
  }

  store(scope: string, key: string, fingerprint: string, reply: Reply): void {
    this.map.set(`${scope}\u0000${key}`, { fingerprint, reply, storedAt: Date.now() });
  }
}
