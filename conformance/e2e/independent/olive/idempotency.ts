// Idempotency keys, stored per access, tenant and key (a table keyed (client_id, tenant, key) in SQLite).
// The fingerprint is SHA-256 over method, path and the canonical JSON body; only 200 answers are stored,
// so a refusal is decided afresh. Concurrent calls with one key wait for the first (a row lock in SQL).
import { createHash } from 'node:crypto';
import { ApiError, canonicalJson, rfc3339Nano } from './util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Entry {
  fingerprint: string;
  expiresAt: number;
  done: Promise<Record<string, unknown> | undefined>;
}

export function createIdempotency(ttlMs = KEY_TTL_MS) {
  const entries = new Map<string, Entry>();
  return {
    /**
     * Runs `work` once per key: a later call with the same fingerprint replays its data, another
     * fingerprint is a conflict. A call that failed leaves the key free again.
     */
    async run(
      scope: string,
      key: string,
      method: string,
      path: string,
      body: unknown,
      work: () => Promise<Record<string, unknown>>,
    ): Promise<{ data: Record<string, unknown>; replayed: boolean }> {
      const fingerprint = createHash('sha256')
        .update(`${method}\n${path}\n${canonicalJson(body ?? null)}`)
        .digest('hex');
      const id = `${scope}\u0000${key}`;
      const found = entries.get(id);
      if (found && found.expiresAt > Date.now()) {
        if (found.fingerprint !== fingerprint)
          throw new ApiError(
            409,
            'idempotency_conflict',
            'the idempotency key was used with different content',
            'use a new key for each new operation',
          );
        const data = await found.done;
        if (data) return { data, replayed: true };
        // The first call failed and freed the key: this call runs as a fresh one (below).
      }
      let settle: (v: Record<string, unknown> | undefined) => void = () => {};
      const entry: Entry = { fingerprint, expiresAt: Date.now() + ttlMs, done: new Promise((r) => (settle = r)) };
      entries.set(id, entry);
      try {
        const data = await work();
        settle(data);
        return { data, replayed: false };
      } catch (e) {
        if (entries.get(id) === entry) entries.delete(id);
        settle(undefined);
        throw e;
      }
    },
  };
}

/** A key for POST /idempotency-keys: the operation's name and a random part, within the pattern. */
export function issueKey(
  operation: string,
  random: string,
  offsetMin: number,
  ttlMs = KEY_TTL_MS,
): { idempotencyKey: string; operation: string; expiresAt: string } {
  const prefix = operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 40);
  const ms = Date.now() + ttlMs;
  return { idempotencyKey: `${prefix}:${random}`, operation, expiresAt: rfc3339Nano(ms, 0, offsetMin) };
}
