// Idempotency as a Rack middleware a Sinatra team writes: the key scoped to the tenant, the request's
// fingerprint (method, path, canonical body) stored beside the successful answer for 24 hours; a repeat with
// the same fingerprint gets the stored answer again (meta.replayed), a different one a 409. Failures are not
// stored, so a corrected request may reuse its key.
import { createHash, randomUUID } from 'node:crypto';
import { type Ctx, Halt, invalid, meta, onlyKeys, requireString, sendJson } from './http.ts';
import { type Rec, rubyTime } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
const TTL_MS = 24 * 3600 * 1000;

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

/** The key of a modifying call: 428 without one, 400 when it breaks the pattern. */
export function requireKey(ctx: Ctx): string {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    throw new Halt(
      428,
      'idempotency_required',
      'An idempotency key is mandatory for this call.',
      undefined,
      'Send the Idempotency-Key header.',
    );
  }
  if (!KEY_PATTERN.test(key)) throw invalid('Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
  ctx.idempotencyKey = key;
  return key;
}

/** Runs `perform` once per (tenant, key); answers repeats from the store. Returns true when it answered. */
export function withIdempotency(ctx: Ctx, perform: () => Rec): void {
  const key = requireKey(ctx);
  const slot = `${ctx.tenant}\u0000${key}`;
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname} ${canonical(ctx.body ?? {})}`)
    .digest('hex');
  const hit = ctx.store.idempotency.get(slot);
  if (hit && hit.expiresAt > Date.now()) {
    if (hit.fingerprint !== fingerprint) {
      throw new Halt(
        409,
        'idempotency_conflict',
        'The idempotency key was used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    // The stored answer again, but meta names this call (its own request id and time): support quotes it.
    ctx.replayed = true;
    sendJson(ctx, hit.status, { ...hit.body, meta: meta(ctx) });
    return;
  }
  // A snapshot of the answer (the row stored as JSON): the record may change later, the stored answer does not.
  const data = structuredClone(perform());
  const body = {
    ok: true,
    data,
    meta: { requestId: ctx.requestId, version: ctx.version, at: rubyTime(ctx.store), idempotencyKey: key },
  };
  ctx.store.idempotency.set(slot, { fingerprint, status: 200, body, expiresAt: Date.now() + TTL_MS });
  sendJson(ctx, 200, body);
}

/** POST /idempotency-keys: a fresh key for an operation, valid as long as stored answers are kept. */
export function mintKey(ctx: Ctx): Rec {
  const body = ctx.body ?? {};
  onlyKeys(ctx, body, ['operation']);
  const operation = requireString(body, 'operation', 2, 80);
  return {
    idempotencyKey: `idem_${randomUUID().replaceAll('-', '')}`,
    operation,
    expiresAt: rubyTime(ctx.store, new Date(Date.now() + TTL_MS)),
  };
}
