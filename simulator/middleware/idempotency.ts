import { hash } from 'node:crypto';
import { canonicalJson } from '../contract/canonical-json.ts';
import type { ErrorCode } from '../contract/errors.ts';
import { ApiError } from '../core/api-error.ts';
import { matchedRoute, type RequestContext } from '../core/context.ts';
import { errorPayload, replay, successPayload } from '../core/envelope.ts';
import type { Middleware } from '../core/pipeline.ts';
import type { IdempotencyPort } from '../state/idempotency-store.ts';

/** Failures that are the operation's own outcome, so the same request must get them again. */
const STORED_FAILURES: ReadonlySet<ErrorCode> = new Set(['not_found', 'capability_denied']);

function fingerprint(ctx: RequestContext): string {
  const route = matchedRoute(ctx);
  return hash('sha256', `${route.method} ${route.id}\n${canonicalJson(ctx.body ?? null)}`, 'base64url');
}

/**
 * Replay and conflict for modifying calls (after validation, so rejected requests never use a key).
 * Same tenant + key + method + route + canonical body -> the stored status and payload again with
 * meta.replayed; different content -> 409 idempotency_conflict; concurrent duplicates wait for the
 * first and then replay it. Stored: 2xx and the operation's own 404/409; not stored: 5xx (retryable).
 */
export function idempotencyMiddleware(store: IdempotencyPort): Middleware {
  return async (ctx, next) => {
    if (!ctx.route?.idempotent || ctx.idempotencyKey === undefined || !ctx.access) return next();
    const fp = fingerprint(ctx);
    for (;;) {
      const begun = store.begin(ctx.access.tenant, ctx.idempotencyKey, fp);
      // The memory store answers synchronously: no extra turn of the event loop on the default path.
      const b = begun instanceof Promise ? await begun : begun;
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
        const saved = b.finish(successPayload(res));
        if (saved) await saved;
        return res;
      } catch (err) {
        const saved = b.finish(
          err instanceof ApiError && STORED_FAILURES.has(err.code) ? errorPayload(err) : undefined,
        );
        if (saved) await saved;
        throw err;
      }
    }
  };
}
