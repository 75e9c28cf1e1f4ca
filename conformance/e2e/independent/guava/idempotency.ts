// Idempotency keys: a stored answer per (client, tenant, key) with a fingerprint of method, path and
// body; the same key and content gets the stored answer with meta.replayed, other content the conflict.
// Only successful answers are kept: a refused call changed nothing, so repeating it must judge it again.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, meta, send } from './http.ts';
import { KEY_PATTERN } from './openapi-schemas.ts';
import { nextId, type Rec, type Store } from './state.ts';

/** How long a key (and its stored answer) stays valid: the team's Minion-style 24 h retention. */
const KEY_TTL_MS = 24 * 3600 * 1000;

function header(ctx: Ctx): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  return Array.isArray(raw) ? raw[0] : raw;
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Rec).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Runs `handler` once per key: a replay or conflict answers here, a new key stores the handler's data. */
export function withKey(store: Store, ctx: Ctx, handler: () => Rec): void {
  const key = header(ctx);
  if (key === undefined || key === '') {
    throw new ApiError('idempotency_required', 'Header Idempotency-Key is required for this call.');
  }
  if (!new RegExp(KEY_PATTERN).test(key)) {
    throw new ApiError(
      'invalid_request',
      'Invalid Idempotency-Key.',
      `/header/Idempotency-Key: String does not match ${KEY_PATTERN}.`,
    );
  }
  const slot = `${ctx.clientId}|${ctx.tenant}|${key}`;
  // The body is compared decoded and re-encoded canonically (sorted keys, as JSON::PP->canonical does):
  // Perl hashes have no order, so whitespace and member order can never make "different content".
  let canonical = ctx.rawBody;
  try {
    canonical = canonicalJson(JSON.parse(ctx.rawBody));
  } catch {
    // Not JSON: validation refuses it anyway, before anything is stored.
  }
  const fingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${canonical}`).digest('hex');
  const now = Date.now();
  const earlier = store.idempotency.get(slot);
  if (earlier && earlier.expires > now) {
    if (earlier.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used with different content.');
    }
    const body = { ...earlier.body, meta: meta(ctx, { idempotencyKey: key, replayed: true }) };
    send(ctx, earlier.status, body);
    return;
  }
  const data = handler();
  const body = { ok: true, data, meta: meta(ctx, { idempotencyKey: key, replayed: false }) };
  store.idempotency.set(slot, { fingerprint, status: 200, body, expires: now + KEY_TTL_MS });
  send(ctx, 200, body);
}

/** POST /idempotency-keys: a fresh key for an operation, with its expiry (the only validity shown). */
export function createKey(store: Store, ctx: Ctx, body: Rec): Rec {
  const id = nextId(store, 'idempotency_keys');
  const idempotencyKey = `${body.operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 40)}:${id}:${createHash('sha256').update(`${ctx.requestId}${Date.now()}${Math.random()}`).digest('hex').slice(0, 24)}`;
  const result = {
    idempotencyKey,
    operation: body.operation,
    expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString(),
  };
  store.keys.push({ ...result, tenant: ctx.tenant });
  return result;
}
