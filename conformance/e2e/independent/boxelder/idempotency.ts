// Idempotency: the key is scoped to (tenant, method, path); the content is the SHA-256 of the body's JSON
// value with sorted members (whitespace and member order are not content). Only successful outcomes are kept: a refused call
// changed nothing, so running it again is as safe as replaying it.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, meta, sendJson } from './http.ts';
import type { Rec } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** The header on a modifying call: absent is 428, malformed is 400. */
export function requireKey(ctx: Ctx): string {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined || String(raw) === '') {
    throw new ApiError('idempotency_required', 'header Idempotency-Key is required for this call');
  }
  const key = String(raw);
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
  }
  ctx.idempotencyKey = key;
  return key;
}

/**
 * Runs `effect` once per key: a repeat with the same bytes is answered from the table (meta.replayed),
 * different bytes are idempotency_conflict. `effect` is synchronous, so concurrent repeats cannot interleave.
 */
export function once(ctx: Ctx, raw: string, effect: () => Rec, keep: (data: Rec) => Rec = (d) => d): void {
  const key = requireKey(ctx);
  const perClient = ctx.store.opts.idemScope === 'client';
  const slot = `${perClient ? ctx.clientId : ctx.tenant}|${ctx.req.method} ${ctx.url.pathname}|${key}`;
  const digest = createHash('sha256')
    .update(`${perClient ? ctx.tenant : ''}|${canonical(raw)}`)
    .digest('hex');
  const prior = ctx.store.idem.get(slot);
  if (prior) {
    if (prior.digest !== digest) {
      throw new ApiError('idempotency_conflict', 'Idempotency-Key was used with different content');
    }
    sendJson(ctx, prior.status, {
      ok: true,
      data: prior.body,
      meta: meta(ctx, { idempotencyKey: key, replayed: true }),
    });
    return;
  }
  const data = effect();
  // `keep` is what the table may hold: a secret issued once is not stored for replays.
  ctx.store.idem.set(slot, { digest, status: 200, body: keep(data) });
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, { idempotencyKey: key, replayed: false }) });
}

/** The content compared: the JSON value with members sorted (member order is not content); else the bytes. */
function canonical(raw: string): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sort((v as Rec)[k])]),
    );
  };
  try {
    return JSON.stringify(sort(JSON.parse(raw)));
  } catch {
    return raw;
  }
}

/** POST /idempotency-keys: a fresh key; it stays valid for 24 hours (the table's eviction age). */
export function issueKey(operation: string): Rec {
  const key = `bx:${operation.replace(/[^A-Za-z0-9._-]/g, '_')}:${randomBytes(12).toString('hex')}`.slice(0, 128);
  return { idempotencyKey: key, operation, expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
}
