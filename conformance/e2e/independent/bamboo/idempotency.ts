// Idempotency as the interface states it: scoped to access, tenant and key (the key exactly as sent),
// fingerprinted by method, path and canonical body, kept 24 h. A replay answers the original status and
// data with meta.replayed true; other content under the key is 409 idempotency_conflict. Validation
// refusals (400) are not stored: the caller fixes the body and retries with the same key.
import { randomBytes } from 'node:crypto';
import type { Ctx } from './pipeline.ts';
import type { Stored } from './state.ts';
import { canonical, denyUnknown, text } from './validate.ts';
import { ApiError, type Call, jsonBody, meta, ok, sendJson, timestamp } from './wire.ts';

const KEY_TTL_MS = 24 * 3600_000;

/**
 * Runs `perform` once per (access, tenant, key): it returns the data (200) or throws an ApiError whose
 * answer is stored too (404, 409 are outcomes; a 5xx is not stored).
 */
export async function idempotent(
  call: Call,
  ctx: Ctx,
  body: unknown,
  perform: () => Record<string, unknown>,
): Promise<void> {
  const key = ctx.key ?? '';
  const scope = `${ctx.clientId}|${ctx.tenant}|${key}`;
  const fingerprint = canonical({ method: call.req.method, path: call.url.pathname.replace(/\/$/, ''), body });
  const store = ctx.state.idempotency;
  const seen = store.get(scope);
  if (seen && seen.expiresAt > Date.now()) {
    if (seen.fingerprint !== fingerprint) {
      throw new ApiError(
        409,
        'idempotency_conflict',
        'The idempotency key was used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    const m =
      ctx.state.options.replayOriginalMeta && seen.meta
        ? { ...seen.meta, replayed: true }
        : meta(call, { idempotencyKey: key, replayed: true });
    sendJson(call, seen.status, { ...seen.body, meta: m }, { 'idempotent-replayed': 'true' });
    return;
  }
  let stored: Stored;
  try {
    const data = perform();
    stored = { status: 200, fingerprint, body: { ok: true, data }, expiresAt: Date.now() + KEY_TTL_MS };
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e;
    const error: Record<string, string> = { code: e.code, message: e.message };
    if (e.detail !== undefined) error.detail = e.detail;
    if (e.hint !== undefined) error.hint = e.hint;
    stored = { status: e.status, fingerprint, body: { ok: false, error }, expiresAt: Date.now() + KEY_TTL_MS };
  }
  stored.meta = { ...meta(call, { idempotencyKey: key, replayed: false }) };
  store.set(scope, stored);
  sendJson(call, stored.status, { ...stored.body, meta: stored.meta });
}

/** POST /idempotency-keys: a fresh key for an operation (not itself keyed: "yes", not "yes + key"). */
export async function createKey(call: Call, _ctx: Ctx): Promise<void> {
  const body = await jsonBody(call.req);
  denyUnknown(body, ['operation']);
  const operation = text(body, 'operation', 2, 80);
  const idempotencyKey = `idem_${randomBytes(16)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}`;
  ok(call, { idempotencyKey, operation, expiresAt: timestamp(Date.now() + KEY_TTL_MS) });
}
