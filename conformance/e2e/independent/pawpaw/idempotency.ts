// Idempotency of modifying calls: a record per tenant and key holding the request's fingerprint and the
// answer, replayed with meta.replayed; a different body under the same key is a conflict. Keys live 24 h.
import { createHash, randomUUID } from 'node:crypto';
import { bad, type Ctx, HttpProblem, jsonBody, ok, text } from './http.ts';
import { instant, type Rec, type Store } from './state.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

/** Canonical JSON (sorted members), so the same content in another member order is the same operation. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Rec)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * Runs `op` once per (tenant, key): a repeat with the same method, path and body answers the stored data again.
 * The key is read before the body is validated, so a missing key is 428 whatever the body.
 */
export function idempotent(store: Store, ctx: Ctx, op: () => Rec) {
  const key = ctx.headers['idempotency-key'];
  if (key === undefined || key === '')
    throw new HttpProblem('idempotency_required', 'Idempotency-Key header is required', undefined, 'Send the key.');
  if (!KEY.test(key)) throw bad('Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$');
  ctx.idempotencyKey = key;
  let body: unknown = ctx.raw;
  try {
    body = JSON.parse(ctx.raw);
  } catch {
    // not JSON: the raw text is the content
  }
  const fingerprint = createHash('sha256')
    .update(`${ctx.method} ${ctx.path}\n${canonical(body)}`)
    .digest('hex');
  const slot = `${ctx.tenant}|${key}`;
  const seen = store.idempotency.get(slot);
  if (seen) {
    if (seen.fingerprint !== fingerprint)
      throw new HttpProblem(
        'idempotency_conflict',
        'Idempotency-Key was already used with different content',
        undefined,
        'Use a new key for each new operation.',
      );
    return ok(ctx, seen.data, { idempotencyKey: key, replayed: true });
  }
  const data = op();
  store.idempotency.set(slot, { fingerprint, status: 200, data, key });
  ok(ctx, data, { idempotencyKey: key });
}

/** POST /idempotency-keys: a fresh key for an operation (not itself keyed: it changes nothing). */
export function issueKey(ctx: Ctx) {
  const body = jsonBody(ctx);
  const operation = text(body, 'operation', 2, 80);
  ok(ctx, {
    idempotencyKey: randomUUID(),
    operation,
    expiresAt: instant(new Date(Date.now() + KEY_TTL_MS), ctx.utcOffset),
  });
}
