// Idempotency of cedar's "yes + key" operations: one effect per (client, tenant, key); the same key and
// content replays the stored answer (own requestId, meta.replayed); other content is idempotency_conflict.
import type { Principal } from './auth.ts';
import type { Ctx } from './http-kit.ts';
import { ApiError, meta, sendJson } from './http-kit.ts';
import { canonicalJson, sha256Hex } from './ids.ts';
import type { Deps } from './operations.ts';
import type { Keyed } from './routes.ts';
import { IDEMPOTENCY_TTL_MS } from './store.ts';

/** Runs a keyed operation once per (client, tenant, key); the same key and content replays the answer. */
export async function runKeyed(ctx: Ctx, p: Principal, deps: Deps, k: Keyed, params: string[]): Promise<void> {
  const body = await k.body(ctx, params);
  const key = ctx.idempotencyKey;
  if (!key) {
    sendJson(ctx, 200, { ok: true, data: k.run(p, deps, body, ctx.requestId, params), meta: meta(ctx) });
    return;
  }
  const id = `${p.client.id}|${p.tenant}|${key}`;
  const fingerprint = sha256Hex(`${ctx.method} ${ctx.path}\n${canonicalJson(body)}`);
  const rec = deps.store.idem.get(id);
  if (rec && rec.expiresAt > Date.now()) {
    if (rec.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'this key was used with other content',
        'use a new key for each new operation',
      );
    }
    sendJson(ctx, rec.status, {
      ...(deps.redactKeyOnReplay ? redactSigningKey(rec.body) : rec.body),
      meta: meta(ctx, { replayed: true }),
    });
    return;
  }
  const data = k.run(p, deps, body, ctx.requestId, params);
  deps.store.idem.set(id, {
    fingerprint,
    status: 200,
    body: { ok: true, data },
    expiresAt: Date.now() + IDEMPOTENCY_TTL_MS,
  });
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });
}

/** A variant reading "issued exactly once" strictly: a replayed registration names the key id, not the key. */
function redactSigningKey(body: Record<string, unknown>): Record<string, unknown> {
  const data = body.data as Record<string, unknown> | undefined;
  const signing = data?.signing as Record<string, unknown> | undefined;
  if (!data || !signing) return body;
  const { key: _key, ...rest } = signing;
  return { ...body, data: { ...data, signing: rest } };
}
