// The idempotency interceptor: keys per tenant and route, a sha256 of the canonical body as the fingerprint,
// the first answer kept and replayed (meta.replayed) for 24 hours.
import { createHash } from 'node:crypto';
import { type Ctx, fail, ok, sendJson } from './http.ts';
import { instant, type Rec } from './state.ts';

const PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v as Rec)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Rec)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** Runs `handler` once per key; a repeat with the same body gets the first answer, another body a 409. */
export async function idempotent(ctx: Ctx, handler: () => Promise<Rec> | Rec) {
  const key = ctx.req.headers['idempotency-key'];
  if (key === undefined || key === '')
    fail('idempotency_required', 'Idempotency-Key header required', undefined, 'Send a new key per operation');
  if (typeof key !== 'string' || !PATTERN.test(key))
    fail('invalid_request', 'Malformed Idempotency-Key', 'Pattern ^[A-Za-z0-9._:-]{8,128}$');
  ctx.idempotencyKey = key as string;
  const slot = `${ctx.tenant}|${ctx.req.method} ${ctx.url.pathname}|${key}`;
  // The fingerprint is the parsed body's canonical form (key order and spacing do not count), else the raw text.
  let parsed: unknown = ctx.raw;
  try {
    parsed = ctx.raw === '' ? '' : JSON.parse(ctx.raw);
  } catch {
    parsed = ctx.raw;
  }
  const hash = createHash('sha256').update(canonical(parsed)).digest('hex');
  const now = Date.now();
  const seen = ctx.store.idem.get(slot);
  if (seen && now - seen.at < KEY_TTL_MS) {
    if (seen.hash !== hash)
      fail('idempotency_conflict', 'Idempotency key reused with different content', undefined, 'Use a new key');
    const body = { ...seen.body, meta: { ...seen.body.meta, requestId: ctx.requestId, replayed: true } };
    return sendJson(ctx, seen.status, body);
  }
  const data = await handler();
  const m = { requestId: ctx.requestId, version: '2026-07-01', at: instant(), idempotencyKey: key };
  // "Issued exactly once": with replayRedactsKey the kept answer omits the webhook's signing key.
  const { signingKey: _k, ...kept } = data;
  const stored = ctx.store.opts.replayRedactsKey ? kept : data;
  ctx.store.idem.set(slot, { hash, status: 200, body: { ok: true, data: stored, meta: m }, at: now });
  ok(ctx, data, { idempotencyKey: key });
}

/** POST /idempotency-keys: a fresh key for the named operation and its expiry. */
export function issueKey(ctx: Ctx, operation: string): Rec {
  const id = createHash('sha256').update(`${ctx.requestId}${Math.random()}`).digest('base64url').slice(0, 32);
  return { idempotencyKey: `idk_${id}`, operation, expiresAt: instant(Date.now() + KEY_TTL_MS) };
}
