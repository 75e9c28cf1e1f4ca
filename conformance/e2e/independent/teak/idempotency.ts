// Idempotency per tenant, route and key: the first successful answer is kept for 24 hours and replayed for
// the same content; other content under the same key is a conflict. The fingerprint is the SHA-256 of the
// body's sorted JSON, so key order and whitespace do not count as different content.
import { createHash } from 'node:crypto';
import { type Ctx, halt, jsonBody, meta, sendJson, str } from './http.ts';
import { type Rec, type Store, snowflake } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
const TTL_MS = 24 * 3600 * 1000;

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') {
    const o = v as Rec;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sorted(o[k])]),
    );
  }
  return v;
}

/** The request's key: 428 when absent, 400 when it breaks the pattern. */
export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') halt('idempotency_required', 'header Idempotency-Key is missing');
  if (!KEY_PATTERN.test(key)) halt('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
  return key;
}

/**
 * Runs `produce` once per key and content: a replay answers the kept data with `meta.replayed: true`.
 * `produce` returns the data of a 200; a halt inside it keeps nothing, so a corrected retry may succeed.
 */
export function idempotent(store: Store, ctx: Ctx, produce: () => Rec): void {
  const key = requireKey(ctx);
  const scope = `${ctx.tenant}|${ctx.method} ${ctx.path}|${key}`;
  let content: unknown;
  try {
    content = JSON.parse(ctx.rawBody || 'null');
  } catch {
    content = ctx.rawBody;
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify(sorted(content)))
    .digest('hex');
  const kept = store.idempotency.get(scope);
  if (kept && Date.now() - kept.at < TTL_MS) {
    if (kept.fingerprint !== fingerprint) halt('idempotency_conflict', 'this key was used with other content');
    sendJson(ctx, kept.status, { ok: true, data: kept.body, meta: meta(ctx, { idempotencyKey: key, replayed: true }) });
    return;
  }
  const data = produce();
  store.idempotency.set(scope, { fingerprint, status: 200, body: data, at: Date.now() });
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, { idempotencyKey: key, replayed: false }) });
}

/** POST /idempotency-keys: a fresh key for the named operation. */
export function createKey(ctx: Ctx): Rec {
  const body = jsonBody(ctx);
  const operation = str(body, 'operation', 2, 80);
  return {
    idempotencyKey: `teak.${operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 40)}.${snowflake(5n)}`,
    operation,
    expiresAt: new Date(Date.now() + TTL_MS).toISOString(),
  };
}
