// Idempotency keys as the team's `IdempotencyKey` guard and `idempotency_keys` table do it: scoped per tenant,
// the stored answer replayed for the same request fingerprint, a conflict for another one. Handlers run
// synchronously between lookup and insert, so concurrent same-key calls cannot both create.
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, denyUnknown, ok, type Rec, readJson, str } from './http.ts';
import type { Store } from './state.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
const TTL_MS = 24 * 3600 * 1000;

/** The guard: 428 when the header is missing, 400 when it breaks the pattern. */
export function requireKey(ctx: Ctx): string {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '') {
    throw new ApiError('idempotency_required', 'Header Idempotency-Key is required for this call');
  }
  if (!KEY.test(key)) throw new ApiError('invalid_request', 'Header Idempotency-Key is malformed', KEY.source);
  return key;
}

/** serde_json's `Value` sorts object keys (BTreeMap), so the fingerprint ignores member order. */
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

/** Runs `create` once per (tenant, key); answers the stored data again, flagged replayed. */
export function idempotent(
  ctx: Ctx,
  store: Store,
  tenant: string,
  key: string,
  body: unknown,
  create: () => Rec,
  redact: (data: Rec) => Rec = (d) => d,
): void {
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(body)}`)
    .digest('hex');
  const slot = `${tenant}|${key}`;
  const hit = store.idempotency.get(slot);
  if (hit && hit.at + TTL_MS > Date.now()) {
    if (hit.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used for another request');
    }
    ok(ctx, redact(hit.data), { idempotencyKey: key, replayed: true });
    return;
  }
  const data = structuredClone(create());
  store.idempotency.set(slot, { fingerprint, data, at: Date.now() });
  ok(ctx, data, { idempotencyKey: key });
}

/** POST /idempotency-keys: a fresh key for one named operation, valid for 24 hours. */
export async function issueKey(ctx: Ctx, store: Store, tenant: string): Promise<void> {
  const body = await readJson(ctx);
  denyUnknown(body, ['operation']);
  const operation = str(body, 'operation', 2, 80) ?? '';
  const result = {
    idempotencyKey: `rb:${randomUUID()}`,
    operation,
    expiresAt: new Date(Date.now() + TTL_MS).toISOString(),
  };
  store.issuedKeys.set(`${tenant}|${result.idempotencyKey}`, result);
  ok(ctx, result);
}
