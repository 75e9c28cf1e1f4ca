import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { checkPipeline, pipeline } from '../core/step.ts';
import { createIdempotencyService } from '../services/idempotency-service.ts';
import { createRateLimitService } from '../services/rate-limit-service.ts';
import { createIdempotencyStore } from '../state/idempotency-store.ts';
import { createRateLimitStore } from '../state/rate-limit-store.ts';
import { authStep } from './auth.ts';
import { idempotencyKeyStep } from './idempotency-key.ts';
import { idempotencyStep } from './idempotency.ts';
import { rateLimitStep } from './rate-limit.ts';

// The interface's real steps, reordered: `npm run typecheck` fails if an @ts-expect-error below stops
// being an error, i.e. if a reordering that breaks a precondition type-checks.
const clock = createClock();
const auth = authStep({ tokens: {} as never, clients: {} as never, clock, environment: 'sandbox' });
const rateLimit = rateLimitStep(createRateLimitService({ repository: createRateLimitStore(), clock }));
const idempotency = idempotencyStep(createIdempotencyService({ repository: createIdempotencyStore(), clock }));

describe('the interface pipeline order is a type', () => {
  it('refuses the rate limit before auth, and idempotency before its key and body, in tsc and at start-up', () => {
    // @ts-expect-error -- rate-limit requires access, which only auth provides
    const early = pipeline([rateLimit, auth], ['route']);
    // @ts-expect-error -- idempotency requires idempotencyKey and body
    const keyless = pipeline([auth, idempotency], ['route']);
    pipeline([auth, rateLimit, idempotencyKeyStep()], ['route']);
    expect(() => checkPipeline('interface', early, [])).toThrow('step rate-limit requires access');
    expect(() => checkPipeline('interface', keyless, [])).toThrow('step idempotency requires idempotencyKey, body');
  });
});
