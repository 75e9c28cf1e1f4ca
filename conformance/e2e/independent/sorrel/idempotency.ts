// Idempotency: the team's `IdempotencyFilter` port. A key is scoped to client and tenant, stored with the
// SHA-256 of the operation and the canonical body; a repeat with the same content gets the stored answer back
// (meta.replayed), a repeat with other content gets 409. Only successful answers are stored, as a row written in
// the same Exposed transaction as the change they made.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, jsonBody, ok, send, text } from './http.ts';
import { instant, type Rec, type Store, ulid } from './state.ts';

const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** Keys live 24 hours, as the table's TTL job deletes them. */
export const KEY_TTL_MS = 24 * 3600 * 1000;

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

/** The header is required on modifying calls: missing 428, malformed 400. */
export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') {
    throw new ApiError(
      'idempotency_required',
      'Header Idempotency-Key is missing.',
      'Send a unique key per operation.',
    );
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Header Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.');
  }
  ctx.idempotencyKey = key;
  return key;
}

/** Runs `create` once per key and content; answers the stored result again on a repeat. */
export function idempotent(store: Store, ctx: Ctx, operation: string, body: Rec, create: () => Rec): void {
  const key = requireKey(ctx);
  const scope = `${ctx.clientId}|${ctx.tenant}|${key}`;
  const fingerprint = createHash('sha256')
    .update(`${operation}\n${canonical(body)}`)
    .digest('hex');
  const seen = store.idempotency.get(scope);
  if (seen) {
    if (seen.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_conflict', `Key ${key} was used for different content.`, 'Use a new key.');
    }
    send(ctx, seen.status, { ...seen.body, meta: { ...seen.body.meta, requestId: ctx.requestId, replayed: true } });
    return;
  }
  const data = create();
  const answer = {
    ok: true,
    data,
    meta: { requestId: ctx.requestId, version: '2026-07-01', at: instant(), idempotencyKey: key },
  };
  store.idempotency.set(scope, { fingerprint, status: 200, body: answer, operation });
  send(ctx, 200, { ...answer, meta: { ...answer.meta, replayed: false } });
}

/** POST /idempotency-keys: a fresh key for an operation, with its expiry (the TTL is not shown to clients). */
export function issueKey(store: Store, ctx: Ctx): void {
  const body = jsonBody(ctx, ['operation']);
  const operation = text(body, 'operation', 2, 80) ?? '';
  const idempotencyKey = `${operation.replace(/[^A-Za-z0-9._:-]/g, '-')}:${ulid()}`.slice(-128);
  const expiresAt = new Date(Date.now() + KEY_TTL_MS).toISOString().replace('Z', '000Z');
  const issued = { idempotencyKey, operation, expiresAt };
  store.issuedKeys.set(idempotencyKey, issued);
  ok(ctx, issued);
}
