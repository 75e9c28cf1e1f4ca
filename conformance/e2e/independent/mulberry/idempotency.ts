// Idempotency: per client + tenant + key, fingerprint = method, path and the canonical body.
// A stored answer (only successes are stored) is valid 1 h after its first use; an issued key 1 h
// after issue. Refusals are not stored, so a corrected request may reuse the key.
import { ApiError, type Ctx, invalid, ok, readObject, str } from './http.ts';
import { canonical, ksuid, now, sha256 } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 3600_000;

interface Stored {
  fingerprint: string;
  data: unknown;
  /** storeRefusals: the refusal, answered again to the same key and content. */
  error?: ApiError;
  expiresAt: number;
}

const tables = new WeakMap<object, { stored: Map<string, Stored>; issued: Map<string, number> }>();

function table(ctx: Ctx) {
  let t = tables.get(ctx.state);
  if (!t) {
    t = { stored: new Map(), issued: new Map() };
    tables.set(ctx.state, t);
  }
  return t;
}

/** The Idempotency-Key header, required and well-formed. */
export function requireKey(ctx: Ctx): string {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '')
    throw new ApiError(
      'idempotency_required',
      'Idempotency-Key header required.',
      'This call modifies data.',
      'Send Idempotency-Key: <8-128 of A-Z a-z 0-9 . _ : ->, or get one from POST /api/public/v1/idempotency-keys.',
    );
  if (!KEY_PATTERN.test(key)) throw invalid('Idempotency-Key is malformed.', 'Pattern ^[A-Za-z0-9._:-]{8,128}$.');
  return key;
}

/**
 * Runs a modifying call once per key: the same key and content answer the stored data again
 * (meta.replayed true), other content is idempotency_conflict. `run` is synchronous so that
 * concurrent calls with one key cannot both execute.
 */
export async function idempotent(ctx: Ctx, run: (body: Record<string, unknown>) => unknown): Promise<void> {
  const key = requireKey(ctx);
  const body = await readObject(ctx);
  const auth = ctx.auth;
  if (!auth) throw new ApiError('internal', 'Internal error.');
  const t = table(ctx);
  const issuedUntil = t.issued.get(key);
  if (issuedUntil !== undefined && issuedUntil < Date.now())
    throw invalid('Idempotency-Key expired.', 'Issued keys are valid for 1 h.', 'Request a new key.');
  const slot = `${auth.clientId}|${auth.tenant}|${key}`;
  const fingerprint = sha256(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(body)}`);
  const hit = t.stored.get(slot);
  ctx.idempotencyKey = key;
  if (hit && hit.expiresAt > Date.now()) {
    if (hit.fingerprint !== fingerprint)
      throw new ApiError(
        'idempotency_conflict',
        'Idempotency-Key was used with other content.',
        'Use a new key for each new operation.',
      );
    ctx.replayed = true;
    if (hit.error) throw hit.error;
    return ok(ctx, hit.data);
  }
  // A snapshot: the connection moves on (provisioning -> live), the replayed answer does not.
  let data: unknown;
  try {
    data = structuredClone(run(body));
  } catch (e) {
    if (ctx.state.opts.storeRefusals && e instanceof ApiError)
      t.stored.set(slot, { fingerprint, data: null, error: e, expiresAt: Date.now() + KEY_TTL_MS });
    throw e;
  }
  t.stored.set(slot, { fingerprint, data, expiresAt: Date.now() + KEY_TTL_MS });
  ctx.replayed = false;
  ok(ctx, data);
}

/** POST /idempotency-keys: a fresh KSUID key, valid 1 h. */
export async function issueKey(ctx: Ctx): Promise<void> {
  const body = await readObject(ctx);
  const operation = str(body, 'operation', 2, 80) ?? '';
  const key = ksuid();
  const expiresAt = Date.now() + KEY_TTL_MS;
  table(ctx).issued.set(key, expiresAt);
  ok(ctx, { idempotencyKey: key, operation, expiresAt: now(ctx.state, expiresAt) });
}
