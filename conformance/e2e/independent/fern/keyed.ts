// The machinery of authenticated endpoints. Modifying calls marked "key" go through `keyed`: the key is
// required (428) and must match the pattern (400) before the body is validated; a replay answers the
// stored data with meta.replayed; only successes are stored.
import type { AuditLog } from './audit.ts';
import type { Access } from './auth.ts';
import type { Connections } from './connections.ts';
import type { Ctx } from './http-util.ts';
import { ApiError, ok, readJson } from './http-util.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { KEY_PATTERN } from './validate.ts';
import type { Webhooks } from './webhooks.ts';

export interface State {
  connections: Connections;
  webhooks: Webhooks;
  audit: AuditLog;
  idem: IdempotencyStore;
  /** FERN_AUDIT_NEWEST_FIRST: newest first, paged by a Link header only. */
  auditNewestFirst: boolean;
}

export interface Call {
  ctx: Ctx;
  access: Access;
  tenant: string;
  params: string[];
  st: State;
}

export function keyHeader(ctx: Ctx, required: boolean): string | undefined {
  const k = ctx.req.headers['idempotency-key'];
  if (typeof k !== 'string') {
    if (required)
      throw new ApiError(
        'idempotency_required',
        'Idempotency-Key header required',
        undefined,
        'Send an Idempotency-Key (POST /api/public/v1/idempotency-keys issues one)',
      );
    return undefined;
  }
  if (!KEY_PATTERN.test(k)) {
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      'header.Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$',
      'Use 8 to 128 letters, digits, dot, underscore, colon or hyphen',
    );
  }
  return k;
}

export async function keyed(
  c: Call,
  required: boolean,
  hasBody: boolean,
  validate: (body: unknown) => unknown,
  run: (input: unknown) => unknown,
) {
  const key = keyHeader(c.ctx, required);
  const body = hasBody ? await readJson(c.ctx.req) : null;
  const scope = `${c.access.clientId}\u0000${c.tenant}`;
  const fp = c.st.idem.fingerprint(c.ctx.req.method ?? '', c.ctx.path.replace(/\/+$/, ''), body);
  // A bodiless call (removal, resend) replays even when its target has gone since; a body is validated first.
  const early = key !== undefined && !hasBody ? c.st.idem.lookup(scope, key, fp) : undefined;
  const input = early?.kind === 'replay' ? undefined : validate(body);
  if (key === undefined) return ok(c.ctx, run(input));
  const found = early ?? c.st.idem.lookup(scope, key, fp);
  if (found.kind === 'conflict') {
    throw new ApiError(
      'idempotency_conflict',
      'Idempotency-Key already used with different content',
      undefined,
      'Use a new key for each new operation',
    );
  }
  c.ctx.idempotencyKey = key;
  if (found.kind === 'replay') {
    c.ctx.replayed = true;
    return ok(c.ctx, found.data);
  }
  const data = run(input) as Record<string, unknown>;
  // A registration's signing key is issued once: the stored answer leaves it out.
  const { secret: _secret, ...kept } = data;
  c.st.idem.store(scope, key, fp, kept);
  return ok(c.ctx, data);
}

export function ownReceiver(c: Call, id: string | undefined) {
  const r = id ? c.st.webhooks.receivers.get(id) : undefined;
  if (!r || r.tenant !== c.tenant || r.status === 'deleted')
    throw new ApiError('not_found', 'Webhook receiver not found', undefined, 'Compare identifier and tenant header');
  return r;
}

export type Handler = (c: Call) => unknown;
