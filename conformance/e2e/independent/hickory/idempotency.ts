// Idempotency as the interface states it: per access, tenant and key; the same key with the same content
// replays the stored answer (meta.replayed), other content is idempotency_conflict, and a key is kept 24 h.
import type { State, StoredResponse } from './state.ts';
import { ApiError, type Ctx, canonicalJson, KEY_PATTERN, type Result, stamp } from './util.ts';

const DAY_MS = 24 * 3600 * 1000;

/** Reads and checks the Idempotency-Key header; 428 where the route requires one and none came. */
export function readKey(ctx: Ctx, required: boolean): void {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) {
    if (required) {
      throw new ApiError('idempotency_required', 'This call needs an Idempotency-Key header.', {
        hint: 'Generate one with POST /api/public/v1/idempotency-keys, or send your own.',
      });
    }
    return;
  }
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'The Idempotency-Key header is malformed.', {
      hint: 'Use 8 to 128 characters of A-Z a-z 0-9 . _ : -',
    });
  }
  ctx.idempotencyKey = key;
}

const scope = (ctx: Ctx) => `${ctx.clientId}|${ctx.tenant}|${ctx.idempotencyKey}`;
const fingerprint = (ctx: Ctx) => canonicalJson([ctx.method, ctx.url.pathname, ctx.body ?? null]);

/** The stored answer to replay, or undefined to go on; 409 when the key was used with other content. */
export function lookup(state: State, ctx: Ctx): StoredResponse | undefined {
  if (ctx.idempotencyKey === undefined) return undefined;
  const stored = state.idempotency.get(scope(ctx));
  if (!stored) return undefined;
  if (stored.expiresAt <= Date.now()) {
    state.idempotency.delete(scope(ctx));
    return undefined;
  }
  if (stored.fingerprint !== fingerprint(ctx)) {
    throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with other content.', {
      hint: 'Use a new key for each new operation.',
    });
  }
  return stored;
}

/** Keeps a successful answer under its key; a key the service issued lives until its own expiry. */
export function remember(state: State, ctx: Ctx, result: Result): void {
  if (ctx.idempotencyKey === undefined || result.status !== 200) return;
  const issued = state.issuedKeys.get(ctx.idempotencyKey);
  state.idempotency.set(scope(ctx), {
    fingerprint: fingerprint(ctx),
    status: result.status,
    data: result.data,
    expiresAt: issued?.expiresAt ?? Date.now() + DAY_MS,
  });
}

/** POST /idempotency-keys: a fresh key, valid 24 h after issue. */
export function issueKey(state: State, operation: string): Result {
  const key = `hk.${crypto.randomUUID().replaceAll('-', '')}`;
  const expiresAt = Date.now() + DAY_MS;
  state.issuedKeys.set(key, { operation, expiresAt });
  return {
    status: 200,
    data: { idempotencyKey: key, operation, expiresAt: stamp(state.options.timeOffsetMin, expiresAt) },
  };
}
