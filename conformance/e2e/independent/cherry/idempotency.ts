// Idempotency-Key handling: per access, tenant and key; the fingerprint is method, path and the canonical body.
import { createHash } from 'node:crypto';
import { ApiError, type Conn, header, meta, send } from './conn.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

interface Stored {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export type IdempotencyStore = Map<string, Stored>;

/** Sorted-key JSON: the same content in another member order is the same operation. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function fingerprint(conn: Conn): string {
  let body: unknown = conn.rawBody ?? '';
  try {
    body = JSON.parse(conn.rawBody ?? '');
  } catch {
    // not JSON: the raw text is the content
  }
  return createHash('sha256')
    .update(`${conn.method} ${conn.path}\n${canonical(body)}`)
    .digest('hex');
}

/** Reads and checks the key header; required: a missing key is idempotency_required (428). */
export function readKey(conn: Conn, required: boolean): string | undefined {
  const key = header(conn, 'idempotency-key');
  if (key === undefined || key === '') {
    if (required) {
      throw new ApiError('idempotency_required', 'an Idempotency-Key header is required for this call', {
        hint: 'send a key matching ^[A-Za-z0-9._:-]{8,128}$, e.g. from POST /api/public/v1/idempotency-keys',
      });
    }
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'the Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$', {
      pointer: '/headers/idempotency-key',
    });
  }
  conn.idempotencyKey = key;
  return key;
}

/**
 * Runs a modifying action once per key: a repeat with the same content replays the stored answer (its own
 * requestId, meta.replayed true); other content is idempotency_conflict. Only successes are stored, so a refused
 * call can be corrected and sent again with its key.
 */
export function once(
  store: IdempotencyStore,
  scope: string,
  conn: Conn,
  key: string | undefined,
  action: () => unknown,
  onReplay?: (data: unknown) => unknown,
): void {
  if (key === undefined) {
    send(conn, 200, { ok: true, data: action(), meta: meta(conn) });
    return;
  }
  const now = Date.now();
  const id = `${scope}\u0000${key}`;
  const fp = fingerprint(conn);
  const hit = store.get(id);
  if (hit && hit.expiresAt > now) {
    if (hit.fingerprint !== fp) {
      throw new ApiError('idempotency_conflict', 'this Idempotency-Key was used with different content', {
        hint: 'use a new key for each new operation',
      });
    }
    conn.replayed = true;
    send(conn, hit.status, { ok: true, data: onReplay ? onReplay(hit.data) : hit.data, meta: meta(conn) });
    return;
  }
  const data = action();
  store.set(id, { fingerprint: fp, status: 200, data, expiresAt: now + KEY_TTL_MS });
  send(conn, 200, { ok: true, data, meta: meta(conn) });
}
