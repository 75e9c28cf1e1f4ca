import { ApiError } from '../core/api-error.ts';
import type { Access, RequestContext } from '../core/context.ts';
import type { Next } from '../core/pipeline.ts';
import type { Reply } from '../core/reply.ts';
import { defineStep } from '../core/step.ts';
import { type RateLimitDecision, type RateLimitPort, rateLimitKey } from '../services/rate-limit-service.ts';

/**
 * Rate limit per access (client), tenant and environment, right after auth: every authenticated
 * answer carries X-RateLimit-Limit and X-RateLimit-Remaining; over the limit -> 429 rate_limited
 * with Retry-After in seconds. Public calls without a token are not counted.
 * @example steps.push(rateLimitStep(state.rateLimits));
 */
export function rateLimitStep(store: RateLimitPort) {
  return defineStep({
    name: 'rate-limit',
    requires: ['access'],
    run(ctx, next) {
      const access = ctx.access;
      const key = rateLimitKey(access);
      if (!access || key === undefined) return next();
      const hit = store.hit(key);
      // A shared store (Redis) counts across replicas and answers later; memory answers at once,
      // without an extra promise (or a closure) on the default path.
      if (hit instanceof Promise) return hit.then((decision) => decide(store, ctx, access, decision, next));
      return decide(store, ctx, access, hit, next);
    },
  });
}

/** The step's answer to one decision: the headers, then on, or 429 with Retry-After. */
function decide(
  store: RateLimitPort,
  ctx: RequestContext,
  access: Access,
  decision: RateLimitDecision | undefined,
  next: Next,
): Promise<Reply> {
  if (!decision) return next();
  ctx.responseHeaders['x-ratelimit-limit'] = String(decision.limit);
  ctx.responseHeaders['x-ratelimit-remaining'] = String(decision.remaining);
  if (!decision.allowed) {
    const settings = store.settings();
    const window = settings ? ` per ${settings.windowSeconds} s` : '';
    throw new ApiError('rate_limited', {
      detail: `This access made ${decision.limit} calls${window} for tenant ${access.tenant}; the window ends in ${decision.resetSeconds} s.`,
      hint: `Wait ${decision.resetSeconds} s (Retry-After), then retry with growing intervals and a little random spread.`,
      headers: { 'retry-after': String(decision.resetSeconds) },
    });
  }
  return next();
}
