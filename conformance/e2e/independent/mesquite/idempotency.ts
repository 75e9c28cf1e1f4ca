// Idempotency as a Ballerina team writes it: a map keyed by tenant, operation and key, holding the content's
// fingerprint and the first answer; a repeat with the same content re-sends that answer marked replayed.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, jsonBody, meta, ok, STATUS, sendJson, str } from './http.ts';
import { civilNow, type Rec, uuid } from './state.ts';

const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** How long a generated key stays valid (the interface returns only the expiry): one day. */
const KEY_TTL_MS = 24 * 3600 * 1000;

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Rec;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Reads and checks the Idempotency-Key header; `required` false lets a call without one through. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) {
    if (required)
      throw new ApiError(
        'idempotency_required',
        'Header Idempotency-Key is required for this call.',
        'Send a unique Idempotency-Key.',
      );
    return undefined;
  }
  const key = Array.isArray(raw) ? (raw[0] ?? '') : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Header Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.');
  }
  ctx.idempotencyKey = key;
  return key;
}

/**
 * Runs `create` once per (tenant, operation, key): the same content again gets the stored data with
 * meta.replayed true, other content a 409 idempotency_conflict. Only successes are stored.
 */
export function once(ctx: Ctx, operation: string, body: unknown, create: () => Rec): void {
  const key = readKey(ctx, true) ?? '';
  const perClient = ctx.store.options.keyScope === 'client';
  const slot = `${perClient ? ctx.clientId : ctx.tenant}|${operation}|${key}`;
  const fingerprint = createHash('sha256')
    .update(canonical(perClient ? { tenant: ctx.tenant, body } : body))
    .digest('hex');
  const prior = ctx.store.idempotency.get(slot);
  if (prior) {
    if (prior.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'The Idempotency-Key was already used with different content.',
        'Use a new key for each new operation.',
      );
    }
    sendJson(ctx, prior.status, {
      ...prior.body,
      meta: { ...prior.body.meta, requestId: ctx.requestId, replayed: true },
    });
    return;
  }
  let data: Rec;
  try {
    data = create();
  } catch (err) {
    if (err instanceof ApiError && ctx.store.options.storeRefusals) {
      const status = STATUS[err.code] ?? 500;
      const body = {
        ok: false,
        error: { code: err.code, message: err.message, hint: err.hint },
        meta: meta(ctx, { idempotencyKey: key }),
      };
      ctx.store.idempotency.set(slot, { fingerprint, status, body });
      sendJson(ctx, status, body);
      return;
    }
    throw err;
  }
  const sent = ok(ctx, data, { idempotencyKey: key, replayed: false });
  // A snapshot, not the live record: the connection may change state later; a replay is the first answer.
  ctx.store.idempotency.set(slot, { fingerprint, status: 200, body: structuredClone(sent) });
}

/** POST /idempotency-keys: a fresh key bound to an operation name. */
export function issueKey(ctx: Ctx): void {
  const body = jsonBody(ctx);
  const operation = str(body, 'operation', 2, 80) ?? '';
  const result = {
    idempotencyKey: `idem:${uuid()}`,
    operation,
    expiresAt: civilNow(Date.now() + KEY_TTL_MS),
  };
  ctx.store.issuedKeys.set(result.idempotencyKey, { ...result, tenant: ctx.tenant });
  ok(ctx, result);
}
