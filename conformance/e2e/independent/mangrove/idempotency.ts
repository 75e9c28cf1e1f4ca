// Idempotency keys: per client, tenant and key; the fingerprint is method, path and the canonical body.
// A stored answer replays for 24 h; a refusal is never stored (the same key may be sent again, fixed).
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, canonical, iso, ok, parseObject, str } from './http.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Stored {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export type IdemStore = Map<string, Stored>;

/** The Idempotency-Key of the call: 428 when required and missing, 400 when it breaks the pattern. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) {
    if (required) throw new ApiError('idempotency_required', 'header Idempotency-Key is required for this call');
    return undefined;
  }
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$',
      'header: Idempotency-Key',
    );
  }
  ctx.idempotencyKey = key;
  return key;
}

/**
 * Runs a modifying action once per key: a replay with the same content answers the stored data again
 * (meta.replayed true), other content under the same key is 409 idempotency_conflict. The action runs
 * synchronously after the body was read, so concurrent copies of one key cannot both create.
 */
export function idempotent(
  idem: IdemStore,
  ctx: Ctx,
  key: string | undefined,
  body: unknown,
  action: () => unknown,
): void {
  if (key === undefined) {
    ok(ctx, action());
    return;
  }
  const scope = `${ctx.clientId}|${ctx.tenant}|${key}`;
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname.replace(/\/+$/, '')}\n${canonical(body)}`)
    .digest('hex');
  const now = Date.now();
  const prior = idem.get(scope);
  if (prior && prior.expiresAt > now) {
    if (prior.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_conflict', 'this Idempotency-Key was used with different content');
    }
    ok(ctx, prior.data, { idempotencyKey: key, replayed: true });
    return;
  }
  const data = action();
  idem.set(scope, { fingerprint, data, expiresAt: now + KEY_TTL_MS });
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

/** POST /idempotency-keys: a fresh key for an operation, valid 24 h. */
export function issueKey(text: string): unknown {
  const body = parseObject(text);
  for (const k of Object.keys(body)) {
    if (k !== 'operation') throw new ApiError('invalid_request', `unknown field ${k}`, `param: ${k}`);
  }
  const operation = str(body, 'operation', 2, 80);
  const expiresAt = iso(Date.now() + KEY_TTL_MS);
  return { idempotencyKey: `mgv_${randomBytes(16).toString('hex')}`, operation, expiresAt };
}
