// Idempotency per client, tenant and key (the key exactly as sent: case matters). A key lives 1 hour after
// its first use. Only successful answers are stored: a refused call leaves no trace and its key stays free.
import type { Ctx } from './http-kit.ts';
import { HttpError, header } from './http-kit.ts';
import { canonical, sha256Hex } from './util.ts';
import { KEY_PATTERN } from './validate.ts';

export const KEY_TTL_MS = 60 * 60 * 1000;

interface Stored {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export function createIdempotency() {
  const stored = new Map<string, Stored>();

  // Reads and validates the header; sets ctx.idempotencyKey so every answer (errors too) names it.
  function readKey(ctx: Ctx, required: boolean): string | undefined {
    const key = header(ctx, 'idempotency-key');
    if (key === undefined) {
      if (required) {
        throw new HttpError(
          428,
          'idempotency_required',
          'This call needs an Idempotency-Key header.',
          'Send Idempotency-Key: 8-128 characters of A-Z a-z 0-9 . _ : -',
        );
      }
      return undefined;
    }
    if (!KEY_PATTERN.test(key)) {
      throw new HttpError(
        400,
        'invalid_request',
        'Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$.',
        'Use 8-128 characters of A-Z a-z 0-9 . _ : -',
      );
    }
    ctx.idempotencyKey = key;
    return key;
  }

  // Runs `op` once per key; the same content again replays, other content conflicts. `op` is synchronous
  // so that concurrent same-key calls cannot both run (no await between lookup and store).
  function run(ctx: Ctx, key: string | undefined, content: unknown, op: () => unknown): unknown {
    if (key === undefined) return op();
    const now = Date.now();
    for (const [k, v] of stored) if (v.expiresAt <= now) stored.delete(k);
    const slot = `${ctx.clientId}|${ctx.tenant}|${key}`;
    const fingerprint = sha256Hex(canonical({ method: ctx.req.method, path: ctx.url.pathname, content }));
    const hit = stored.get(slot);
    if (hit) {
      if (hit.fingerprint !== fingerprint) {
        throw new HttpError(
          409,
          'idempotency_conflict',
          'This Idempotency-Key was used with different content.',
          'Use a new key for each new operation.',
        );
      }
      ctx.replayed = true;
      return hit.data;
    }
    const data = op();
    stored.set(slot, { fingerprint, data, expiresAt: now + KEY_TTL_MS });
    return data;
  }

  return { readKey, run };
}
export type Idempotency = ReturnType<typeof createIdempotency>;
