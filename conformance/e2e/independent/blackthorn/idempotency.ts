// The idempotency interceptor: modifying calls need a key; a stored success is answered again for the same
// key and content (meta.replayed), and the same key with other content is a conflict. Keys are per tenant.
import { createHash } from 'node:crypto';

import { ApiError, type Ctx, canonical, meta, ok, sendJson } from './http.ts';
import { instant, type Rec, type Store, uuid } from './state.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
/** Keys live a day; only the expiry is shown to clients, as the contract asks. */
export const KEY_TTL_MS = 24 * 3600_000;

/** Reads and checks the header; true when a stored answer was replayed (the handler must not run). */
export function idempotencyBefore(store: Store, ctx: Ctx, body: Rec): boolean {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') {
    throw new ApiError(
      428,
      'idempotency_required',
      'Header Idempotency-Key is required for this call',
      undefined,
      'Send an Idempotency-Key',
    );
  }
  if (!KEY.test(key)) {
    throw new ApiError(
      400,
      'invalid_request',
      'Idempotency-Key has an invalid format',
      'Idempotency-Key: should match ^[A-Za-z0-9._:-]{8,128}$',
    );
  }
  ctx.idempotencyKey = key;
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(body)}`)
    .digest('hex');
  const stored = store.idempotency.get(`${ctx.tenant}|${key}`);
  if (!stored) return false;
  if (stored.fingerprint !== fingerprint) {
    throw new ApiError(
      409,
      'idempotency_conflict',
      'The key was used before with other content',
      undefined,
      'Use a new key for each new operation',
    );
  }
  sendJson(ctx, stored.status, { ...stored.body, meta: meta(ctx, { idempotencyKey: key, replayed: true }) });
  return true;
}

/** Answers a success and remembers it under the key with the request's fingerprint. */
export function okRemembered(store: Store, ctx: Ctx, body: Rec, data: Rec) {
  const key = ctx.idempotencyKey ?? '';
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(body)}`)
    .digest('hex');
  store.idempotency.set(`${ctx.tenant}|${key}`, { fingerprint, status: 200, body: { ok: true, data } });
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

export function issueKey(ctx: Ctx, body: Rec) {
  const op = String(body.operation);
  const data = {
    idempotencyKey: `${op.replace(/[^A-Za-z0-9._:-]/g, '-')}:${uuid()}`.slice(0, 128),
    operation: op,
    expiresAt: instant(Date.now() + KEY_TTL_MS),
  };
  ok(ctx, data);
}
