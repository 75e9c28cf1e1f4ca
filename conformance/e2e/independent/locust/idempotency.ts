// Idempotency as a Falcon middleware would keep it in Redis: keyed by tenant and key, a fingerprint of the
// method, path and the body as `json.dumps(body, sort_keys=True)`, only successful answers stored (a refused call
// may be repeated with the same key once corrected), kept for 24 hours.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, ok, validationError } from './http.ts';
import { isoformat, type Rec, type Store } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_SECONDS = 86_400;

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const out: Rec = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Rec)[k]);
    return out;
  }
  return v;
}

/** The header, validated: 428 when absent, 400 when it breaks the pattern. */
export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') {
    throw new ApiError(
      'idempotency_required',
      'An Idempotency-Key header is required for this call.',
      undefined,
      'Send a unique Idempotency-Key per operation.',
    );
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Invalid Idempotency-Key.',
      '{"Idempotency-Key": ["String does not match expected pattern."]}',
    );
  }
  return key;
}

/**
 * Runs `create` once per (tenant, key): a repeat with the same fingerprint answers the stored data again with
 * `meta.replayed`, a different one is `idempotency_conflict`. All synchronous after the body was read, so five
 * concurrent calls with one key run one after another on the event loop and four of them replay.
 */
export function idempotent(store: Store, ctx: Ctx, key: string, body: Rec, create: () => Rec): void {
  const fingerprint = createHash('sha256')
    .update(`${ctx.method} ${ctx.path}\n${JSON.stringify(sortKeys(body))}`)
    .digest('hex');
  const slot = `${ctx.tenant}|${key}`;
  const seen = store.idempotency.get(slot);
  if (seen && Date.now() - seen.at < KEY_TTL_SECONDS * 1000) {
    if (seen.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'This Idempotency-Key was used with a different request.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    ok(ctx, seen.body, { idempotencyKey: key, replayed: true });
    return;
  }
  const data = create();
  store.idempotency.set(slot, { fingerprint, status: 200, body: data, at: Date.now() });
  ok(ctx, data, { idempotencyKey: key });
}

/** POST /idempotency-keys: `secrets.token_urlsafe(24)` behind a prefix naming the service. */
export function issueKey(store: Store, ctx: Ctx, body: Rec): void {
  const op = body.operation;
  const errors: Record<string, string[]> = {};
  for (const k of Object.keys(body)) if (k !== 'operation') errors[k] = ['Unknown field.'];
  if (op === undefined) errors.operation = ['Missing data for required field.'];
  else if (typeof op !== 'string') errors.operation = ['Not a valid string.'];
  else if (op.length < 2 || op.length > 80) errors.operation = ['Length must be between 2 and 80.'];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const result = {
    idempotencyKey: `lck_${randomBytes(24).toString('base64url')}`,
    operation: op,
    expiresAt: isoformat(Date.now() + KEY_TTL_SECONDS * 1000),
  };
  store.issuedKeys.push({ ...result, tenant: ctx.tenant });
  ok(ctx, result);
}
