// Idempotency keys: scoped per tenant, remembered 24 h from issue (a key issued by POST /idempotency-keys)
// or from first use (a key the client made up). The fingerprint is method, path and the body's canonical
// JSON (members sorted), so the same content written anew replays. Only successes are remembered: a
// refused call leaves nothing, and the key may be used again. Handlers run synchronously after the body
// is read, so concurrent calls with one key cannot both create: the second finds the first's record.
import { randomBytes } from 'node:crypto';
import { tenantOf } from './auth.ts';
import { nowIso } from './catalog.ts';
import { sendError, sendOk } from './http-kit.ts';
import { type Ctx, HttpError, KEY_TTL_MS, type StoredResponse } from './types.ts';
import { text } from './validate.ts';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export type Keyed = {
  required: boolean;
  // Makes the change and returns the data; throws HttpError to refuse (nothing is remembered then).
  perform: () => Record<string, unknown>;
  // What a replay shows instead of the stored data (e.g. without a signing key), when set.
  replayView?: (data: Record<string, unknown>) => Record<string, unknown>;
};

export function runKeyed(ctx: Ctx, body: Record<string, unknown> | undefined, op: Keyed) {
  const key = ctx.idempotencyKey;
  if (key === undefined) {
    if (op.required) {
      throw new HttpError(
        428,
        'idempotency_required',
        'An Idempotency-Key header is required for this call.',
        undefined,
        'Send the key.',
      );
    }
    return sendOk(ctx, op.perform());
  }
  const tenant = tenantOf(ctx);
  const scope = `${tenant}\n${key}`;
  const now = Date.now();
  const issued = ctx.state.issuedKeys.get(scope);
  if (issued && issued.expiresAt <= now) {
    throw new HttpError(400, 'invalid_request', 'The Idempotency-Key has expired.', undefined, 'Request a new key.');
  }
  const fingerprint = `${ctx.req.method} ${ctx.url.pathname.replace(/\/+$/, '')} ${canonical(body ?? null)}`;
  const record = ctx.state.idempotency.get(scope);
  if (record && record.expiresAt > now) {
    if (record.fingerprint !== fingerprint) {
      throw new HttpError(
        409,
        'idempotency_conflict',
        'This Idempotency-Key was used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    if (record.response.error) return sendError(ctx, record.response.error, { idempotencyKey: key, replayed: true });
    const data = op.replayView ? op.replayView(record.response.data) : record.response.data;
    return sendOk(ctx, data, { idempotencyKey: key, replayed: true });
  }
  const expiresAt = issued?.expiresAt ?? now + KEY_TTL_MS;
  let data: Record<string, unknown>;
  try {
    data = op.perform();
  } catch (err) {
    if (
      err instanceof HttpError &&
      ctx.state.options.replayRefusals &&
      (err.status === 404 || err.code === 'capability_denied')
    ) {
      ctx.state.idempotency.set(scope, {
        fingerprint,
        response: { status: err.status, data: {}, error: err },
        expiresAt,
      });
      return sendError(ctx, err, { idempotencyKey: key, replayed: false });
    }
    throw err;
  }
  const response: StoredResponse = { status: 200, data };
  ctx.state.idempotency.set(scope, { fingerprint, response, expiresAt });
  sendOk(ctx, data, { idempotencyKey: key, replayed: false });
}

// POST /idempotency-keys: a fresh key, 24 h valid from now. A key sent with this call is honoured too.
export function issueKey(ctx: Ctx, body: Record<string, unknown>) {
  const operation = text(body, 'operation', 2, 80);
  runKeyed(ctx, body, {
    required: false,
    perform: () => {
      const key = `idk_${randomBytes(16).toString('hex')}`;
      const expiresAt = Date.now() + KEY_TTL_MS;
      ctx.state.issuedKeys.set(`${tenantOf(ctx)}\n${key}`, { tenant: tenantOf(ctx), expiresAt });
      return { idempotencyKey: key, operation, expiresAt: nowIso(expiresAt) };
    },
  });
}

export function pruneKeys(ctx: Ctx) {
  const now = Date.now();
  if (ctx.state.idempotency.size < 50_000) return;
  for (const [k, r] of ctx.state.idempotency) if (r.expiresAt <= now) ctx.state.idempotency.delete(k);
}
