import { hash } from 'node:crypto';
import { canonicalJson } from '../contract/canonical-json.ts';
import type { ErrorCode } from '../contract/errors.ts';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext } from '../core/context.ts';
import { successDataJson } from '../core/envelope.ts';
import type { Middleware } from '../core/pipeline.ts';
import type { PlainResponse } from '../core/types.ts';
import type { IdempotencyStore, StoredOutcome } from '../state/idempotency-store.ts';
import { isoTime } from '../lib/iso-time.ts';

/** Failures that are the operation's own outcome, so the same request must get them again. */
const STORED_FAILURES: ReadonlySet<ErrorCode> = new Set(['not_found', 'capability_denied']);

function fingerprint(ctx: RequestContext): string {
  return hash('sha256', `${ctx.route!.method} ${ctx.route!.id}\n${canonicalJson(ctx.body ?? null)}`, 'base64url');
}

function replay(ctx: RequestContext, outcome: StoredOutcome): PlainResponse {
  ctx.replayed = true;
  const meta: Record<string, unknown> = {
    requestId: ctx.requestId,
    version: ctx.version,
    at: isoTime(ctx.at),
    idempotencyKey: ctx.idempotencyKey,
    replayed: true,
  };
  return {
    status: outcome.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': ctx.requestId,
      ...ctx.responseHeaders,
    },
    body: `{"ok":${outcome.ok},"${outcome.ok ? 'data' : 'error'}":${outcome.payload},"meta":${JSON.stringify(meta)}}`,
  };
}

/**
 * Replay and conflict for modifying calls (after validation, so rejected requests never use a key).
 * Same tenant + key + method + route + canonical body -> the stored status and payload again with
 * meta.replayed; different content -> 409 idempotency_conflict; concurrent duplicates wait for the
 * first and then replay it. Stored: 2xx and the operation's own 404/409; not stored: 5xx (retryable).
 */
export function idempotencyMiddleware(store: IdempotencyStore): Middleware {
  return async (ctx, next) => {
    if (!ctx.route?.idempotent || ctx.idempotencyKey === undefined || !ctx.access) return next();
    const fp = fingerprint(ctx);
    for (;;) {
      const b = store.begin(ctx.access.tenant, ctx.idempotencyKey, fp);
      if (b.kind === 'conflict') {
        throw new ApiError('idempotency_conflict', {
          detail: 'This Idempotency-Key was used with a different body, method or route.',
        });
      }
      if (b.kind === 'replay') return replay(ctx, b.outcome);
      if (b.kind === 'wait') {
        await b.settled;
        continue;
      }
      try {
        const res = await next();
        if (res.status >= 200 && res.status < 300 && res.body) {
          const payload = successDataJson(ctx, res) ?? JSON.stringify(JSON.parse(res.body).data);
          b.finish({ status: res.status, payload, ok: true });
        } else b.finish(undefined);
        return res;
      } catch (err) {
        if (err instanceof ApiError && STORED_FAILURES.has(err.code)) {
          const error: Record<string, string> = { code: err.code, message: err.message };
          if (err.detail) error.detail = err.detail;
          error.hint = err.hint;
          b.finish({ status: err.status, payload: JSON.stringify(error), ok: false });
        } else b.finish(undefined);
        throw err;
      }
    }
  };
}
