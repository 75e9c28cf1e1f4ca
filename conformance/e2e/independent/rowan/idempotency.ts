// Idempotency-Key handling (the team's middleware): per client and tenant, fingerprint = method, path and
// canonical body, kept 24 h from first use; replays answer the stored data with meta.replayed.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, ok } from './http-util.ts';
import type { RowanState } from './state.ts';
import { IDEMPOTENCY_TTL_MS } from './state.ts';

const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The key of a modifying call: required where `required`, else honoured when sent. */
export function keyOf(ctx: Ctx, required: boolean): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    if (required) throw new ApiError('idempotency_required', 'An Idempotency-Key header is required for this call.');
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Idempotency-Key: 8 to 128 letters, digits, dot, underscore, colon or hyphen.',
    );
  }
  return key;
}

/**
 * Runs `perform` once per key; the same key and content answers the stored data again, other content 409.
 * The record is written before anything awaits, so concurrent calls with one key see it.
 */
export function withIdempotency(
  ctx: Ctx,
  state: RowanState,
  scope: string,
  key: string | undefined,
  operation: string,
  body: unknown,
  perform: () => { status: number; data: unknown },
): void {
  if (key === undefined) {
    const r = perform();
    ok(ctx, r.data);
    return;
  }
  const id = `${scope}\u0000${key}`;
  const fingerprint = createHash('sha256')
    .update(`POST ${ctx.path}\n${canonical(body)}`)
    .digest('hex');
  const now = Date.now();
  const stored = state.idempotency.get(id);
  if (stored && stored.expiresAt > now) {
    if (stored.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'This Idempotency-Key was used with different content.',
        'Use a new key for each new operation.',
      );
    }
    ok(ctx, stored.data, { idempotencyKey: key, replayed: true });
    return;
  }
  const r = perform();
  state.idempotency.set(id, {
    fingerprint,
    operation,
    status: r.status,
    data: r.data,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  });
  ok(ctx, r.data, { idempotencyKey: key, replayed: false });
}
