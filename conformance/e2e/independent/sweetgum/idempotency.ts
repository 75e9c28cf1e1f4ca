// Idempotency-Key handling as the team's shelf middleware does it: the key is scoped to client and tenant,
// the content fingerprint is SHA-256 over the method, path and canonical JSON body (package:crypto), and
// only successful answers are kept (24 h), so a refused request may be corrected and sent with its key.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, meta, ok, sendJson } from './http.ts';
import { dartNow, type Rec, uuid } from './state.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
const TTL_MS = 24 * 3600 * 1000;

interface Kept {
  fingerprint: string;
  data?: unknown;
  /** The first call's effect while it runs (its INSERT not yet committed): repeats wait for it. */
  pending?: Promise<unknown> | undefined;
  expires: number;
}
export type IdemStore = Map<string, Kept>;

/** Keys sorted at every level, so the same content in another order is the same operation. */
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

/** The header, required and well-formed; sets ctx.idempotencyKey. */
export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') {
    throw new ApiError(428, 'idempotency_required', 'Header Idempotency-Key is required for this call');
  }
  if (!KEY.test(key)) throw new ApiError(400, 'invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
  ctx.idempotencyKey = key;
  return key;
}

/**
 * Runs `effect` once per key and content: a repeat answers the kept data with `meta.replayed: true` (one
 * arriving while the first still runs waits for it, as the Postgres row lock makes it), other content under
 * the same key is a conflict. A failed effect keeps nothing.
 */
export async function idempotent(store: IdemStore, ctx: Ctx, body: unknown, effect: () => unknown): Promise<void> {
  const key = requireKey(ctx);
  const slot = `${ctx.clientId}|${ctx.tenant}|${key}`;
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(body)}`)
    .digest('hex');
  const kept = store.get(slot);
  if (kept && kept.expires > Date.now()) {
    if (kept.fingerprint !== fingerprint) {
      throw new ApiError(409, 'idempotency_conflict', 'Idempotency-Key was already used with different content');
    }
    const data = kept.pending ? await kept.pending : kept.data;
    sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, { idempotencyKey: key, replayed: true }) });
    return;
  }
  const entry: Kept = { fingerprint, expires: Date.now() + TTL_MS };
  entry.pending = Promise.resolve().then(effect);
  store.set(slot, entry);
  try {
    entry.data = await entry.pending;
    entry.pending = undefined;
  } catch (err) {
    store.delete(slot);
    throw err;
  }
  ok(ctx, entry.data, { idempotencyKey: key, replayed: false });
}

/** POST /idempotency-keys: a UUID v4 key valid 24 hours. */
export function issueKey(body: Rec): Rec {
  const op = body.operation;
  if (typeof op !== 'string' || op.length < 2 || op.length > 80) {
    throw new ApiError(400, 'invalid_request', 'Field operation must be a string of 2 to 80 characters');
  }
  return { idempotencyKey: uuid(), operation: op, expiresAt: dartNow(Date.now() + TTL_MS) };
}
