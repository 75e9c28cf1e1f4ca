// Idempotency as Powertools for Lambda does it over a DynamoDB table: a record per access, tenant and key
// holding the fingerprint of the request (method, route, canonical JSON body) and the stored answer. The
// record is written "in progress" first, so a concurrent call with the same key waits for the first one
// and then replays it. Only successes are stored: a refused call leaves its key free. Records live 24 h
// from first use; keys issued by POST /idempotency-keys expire 24 h after issue unless used.
import { ApiError } from './http-kit.ts';
import { ulid } from './ids.ts';

export const REPLAY_WINDOW_MS = 24 * 3600 * 1000;

interface Record_ {
  fingerprint: string;
  data: unknown;
  firstUsedAt: number;
}

/** JSON with object members sorted: the same content written anew has the same fingerprint. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export function createIdempotency() {
  const records = new Map<string, Record_>();
  const inProgress = new Map<string, Promise<unknown>>();
  const issued = new Map<string, { tenant: string; operation: string; expiresAt: number }>();

  /**
   * Runs `work` once per key: a later call with the same key and fingerprint gets the stored data
   * (replayed: true), another fingerprint 409 idempotency_conflict.
   */
  async function once(
    scope: string,
    key: string,
    fingerprint: string,
    work: () => Promise<unknown> | unknown,
  ): Promise<{ data: unknown; replayed: boolean }> {
    const id = `${scope}|${key}`;
    for (let pending = inProgress.get(id); pending; pending = inProgress.get(id)) {
      await pending.catch(() => undefined);
    }
    const found = records.get(id);
    if (found && Date.now() - found.firstUsedAt < REPLAY_WINDOW_MS) {
      if (found.fingerprint !== fingerprint) {
        throw new ApiError(
          'idempotency_conflict',
          'The Idempotency-Key was used with different content.',
          undefined,
          'Use a new key for each new operation.',
        );
      }
      return { data: found.data, replayed: true };
    }
    const running = Promise.resolve().then(work);
    inProgress.set(id, running);
    try {
      const data = await running;
      records.set(id, { fingerprint, data, firstUsedAt: Date.now() });
      // An issued key that is used now lives as long as its record (24 h from first use).
      issued.delete(key);
      return { data, replayed: false };
    } finally {
      inProgress.delete(id);
    }
  }

  /** POST /idempotency-keys: a fresh key, valid 24 h from now unless used. */
  function issue(tenant: string, operation: string) {
    const key = `ivy:${ulid()}`;
    const expiresAt = Date.now() + REPLAY_WINDOW_MS;
    issued.set(key, { tenant, operation, expiresAt });
    return { idempotencyKey: key, operation, expiresAt: new Date(expiresAt).toISOString() };
  }

  return { once, issue };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
