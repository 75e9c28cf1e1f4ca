// Idempotency keys stored per tenant and client (the team's idempotency table), replayed with meta.replayed.
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, isoNow, meta, pyDumps, type Rec, str } from './http.ts';
import type { Store } from './state.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;

/** Runs `op` once per key and body; a replay sends the stored answer with meta.replayed true. */
export function idempotent(s: Store, ctx: Ctx, op: () => Rec): void {
  const key = ctx.req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '')
    throw new ApiError('idempotency_required', 'Header Idempotency-Key is required.');
  if (!KEY.test(key)) throw new ApiError('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.');
  const scope = `${ctx.tenant}/${ctx.clientId}/${key}`;
  const hash = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(ctx.raw)}`)
    .digest('hex');
  const seen = s.idem.get(scope);
  if (seen) {
    if (seen.hash !== hash)
      throw new ApiError('idempotency_conflict', 'Idempotency-Key was used with different content.');
    ctx.meta = { idempotencyKey: key, replayed: true };
    write(ctx, seen.body);
    return;
  }
  const data = op();
  ctx.meta = { idempotencyKey: key };
  s.idem.set(scope, { hash, status: 200, body: data });
  write(ctx, data);
}

function write(ctx: Ctx, data: Rec): void {
  ctx.res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Request-Id': ctx.requestId,
    ...ctx.headers,
  });
  ctx.res.end(pyDumps({ ok: true, data, meta: meta(ctx) }));
}

function canonical(raw: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw)));
  } catch {
    return raw;
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Rec)[k])]),
    );
  return v;
}

/** POST /idempotency-keys: a UUID key, valid 24 hours. */
export function createKey(body: Rec): Rec {
  const operation = str(body, 'operation', 2, 80);
  return { idempotencyKey: randomUUID(), operation, expiresAt: isoNow(Date.now() + 86_400_000) };
}
