// Idempotency-Key handling: the team's `idempotent` wrapper around a handler, storing the first answer in an
// ETS-style table keyed by tenant, route and key, with a SHA-256 fingerprint of the raw body.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, jsonBody, meta, ok, send, str } from './http.ts';
import { iso, type Rec, type Store } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** Keys live a day: long enough for a retried batch job, short enough to keep the table small. */
export const KEY_TTL_MS = 24 * 3600 * 1000;

export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key.length === 0) {
    throw new ApiError(428, 'idempotency_required', 'An Idempotency-Key header is required for this call');
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      400,
      'invalid_request',
      'Request is invalid',
      'Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$',
    );
  }
  return key;
}

function fingerprint(raw: string): string {
  // Canonical JSON when it parses (key order and spacing do not change the content), the raw text otherwise.
  let text = raw;
  try {
    text = JSON.stringify(sortKeys(JSON.parse(raw)));
  } catch {
    /* not JSON: the handler refuses it; the raw text is the fingerprint */
  }
  return createHash('sha256').update(text).digest('hex');
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const o = v as Rec;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortKeys(o[k])]),
    );
  }
  return v;
}

/**
 * Runs `handler` once per key: a repeat with the same content gets the stored answer with meta.replayed true,
 * different content a 409. Only successes are stored, so a refused call may be corrected and sent again.
 */
export function idempotent(store: Store, ctx: Ctx, route: string, handler: () => Rec): void {
  const key = requireKey(ctx);
  ctx.idempotencyKey = key;
  const id = store.options.keyPerTenant ? `${ctx.tenant}|${key}` : `${ctx.tenant}|${route}|${key}`;
  const fp = fingerprint(ctx.raw);
  const prior = store.idem.get(id);
  if (prior && prior.expires > Date.now()) {
    if (prior.fingerprint !== fp) {
      throw new ApiError(409, 'idempotency_conflict', 'This Idempotency-Key was used with different content');
    }
    ctx.replayed = true;
    send(ctx, prior.status, { ...prior.body, meta: { ...prior.body.meta, ...meta(ctx) } });
    return;
  }
  ctx.replayed = false;
  const body = handler();
  store.idem.set(id, { fingerprint: fp, status: 200, body, expires: Date.now() + KEY_TTL_MS });
}

/** POST /idempotency-keys: a fresh key for an operation, remembered until it expires. */
export function issueKey(store: Store, ctx: Ctx): void {
  const operation = str(jsonBody(ctx), 'operation', 2, 80);
  const idempotencyKey = `idk_${randomBytes(18)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}`;
  const data = { idempotencyKey, operation, expiresAt: iso(Date.now() + KEY_TTL_MS) };
  store.issuedKeys.set(idempotencyKey, { ...data, tenant: ctx.tenant });
  ok(ctx, data);
}
