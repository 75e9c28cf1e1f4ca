// The idempotency directive: a Slick table of (tenant, key) -> request fingerprint and stored answer. Only a
// completed success is stored (a refused request leaves the key free), and replays re-send the stored data with
// meta.replayed and meta.idempotencyKey. Keys expire after 24 h, as the team's cleanup job deletes them.
import { createHash } from 'node:crypto';
import { bad, type Ctx, jsonBody, ok, Rejection, str } from './http.ts';
import { instant, type Rec, type Store } from './state.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
const TTL_MS = 24 * 3600 * 1000;

/** Sorted-keys JSON, so the same content in another member order is the same request. */
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

export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') {
    throw new Rejection(428, 'idempotency_required', 'Idempotency-Key header is required', undefined, 'send a key');
  }
  if (!KEY.test(key)) throw bad('Idempotency-Key is malformed', 'pattern ^[A-Za-z0-9._:-]{8,128}$');
  return key;
}

/**
 * Runs `action` once per (tenant, key): a repeat with the same content replays, other content conflicts.
 * `redact` removes what must never be sent twice (a webhook's signing key) from the stored answer.
 */
export function idempotent(store: Store, ctx: Ctx, action: (body: Rec) => Rec, redact?: (data: Rec) => Rec): void {
  const key = requireKey(ctx);
  let body: Rec;
  try {
    body = jsonBody(ctx);
  } catch (e) {
    if (ctx.raw.trim() === '') body = {};
    else throw e;
  }
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.path} ${canonical(body)}`)
    .digest('hex');
  const slot = `${ctx.tenant}|${key}`;
  const now = Date.now();
  const prior = store.idempotency.get(slot);
  if (prior && prior.expiresAt > now) {
    if (prior.fingerprint !== fingerprint) {
      throw new Rejection(409, 'idempotency_conflict', 'Idempotency-Key was used with different content');
    }
    ok(ctx, prior.body, { idempotencyKey: key, replayed: true });
    return;
  }
  const data = action(body);
  store.idempotency.set(slot, {
    fingerprint,
    status: 200,
    body: redact ? redact(data) : data,
    expiresAt: now + TTL_MS,
  });
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

/** POST /idempotency-keys: a fresh key for an operation, with its expiry. */
export function issueKey(store: Store, ctx: Ctx): void {
  const body = jsonBody(ctx);
  const operation = str(body, 'operation', 2, 80) as string;
  const idempotencyKey = `bw:${operation.replace(/[^A-Za-z0-9._:-]/g, '-')}:${crypto.randomUUID()}`.slice(0, 128);
  const expiresAt = instant(Date.now() + TTL_MS);
  store.issuedKeys.set(idempotencyKey, { operation, expiresAt });
  ok(ctx, { idempotencyKey, operation, expiresAt });
}
