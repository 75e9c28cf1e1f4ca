import { IDEMPOTENCY_KEY_PATTERN, LIMITS } from '../contract/limits.ts';
import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';

/**
 * Modifying calls need an Idempotency-Key: missing -> 428 idempotency_required, malformed -> 400
 * invalid_request. Runs before body validation so the header rule wins over body problems.
 */
export function idempotencyKeyStep() {
  return defineStep({
    name: 'idempotency-key',
    requires: ['route'],
    provides: ['idempotencyKey'],
    run(ctx, next) {
      if (!ctx.route.idempotent) return next();
      const key = ctx.req.headers['idempotency-key'];
      if (key === undefined || key === '') {
        throw new ApiError('idempotency_required', {
          detail: `${ctx.route.method} ${ctx.route.path} changes data and needs an Idempotency-Key header.`,
        });
      }
      if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
        throw new ApiError('invalid_request', {
          detail: `header Idempotency-Key must match ${LIMITS.idempotencyKey.pattern} (${LIMITS.idempotencyKey.min} to ${LIMITS.idempotencyKey.max} letters, digits, dot, underscore, colon or hyphen).`,
          hint: 'Generate a key with POST /api/public/v1/idempotency-keys or use a UUID.',
        });
      }
      ctx.idempotencyKey = key;
      return next();
    },
  });
}
