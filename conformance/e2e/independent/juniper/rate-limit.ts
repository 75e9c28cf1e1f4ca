// Fixed-window rate limit per access token + tenant (Rack::Attack's throttle, discriminated by the bearer
// token and the x-service-tenant header as sent). It runs as middleware, before routing and before the
// token is verified, so every call that carries an Authorization header is counted and gets the headers;
// calls without one (public reads, the 401 for a missing token) are not counted.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError, type State } from './types.ts';

export type RateOutcome = { headers: Record<string, string>; limited: HttpError | undefined };

export function countCall(state: State, req: IncomingMessage): RateOutcome {
  const auth = req.headers.authorization;
  if (auth === undefined || auth === '') return { headers: {}, limited: undefined };
  const tenantRaw = req.headers['x-service-tenant'];
  const tenant = Array.isArray(tenantRaw) ? (tenantRaw[0] ?? '') : (tenantRaw ?? '');
  const key = createHash('sha256').update(auth).update('\n').update(tenant).digest('hex');
  const { rateLimit, windowMs } = state.options;
  const now = Date.now();
  const windowStart = Math.floor(now / windowMs) * windowMs;
  let window = state.windows.get(key);
  if (!window || window.start !== windowStart) {
    window = { start: windowStart, count: 0 };
    state.windows.set(key, window);
    if (state.windows.size > 10_000) pruneOld(state, windowStart);
  }
  window.count += 1;
  const remaining = Math.max(0, rateLimit - window.count);
  const resetAt = windowStart + windowMs;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(rateLimit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
  };
  if (window.count <= rateLimit) return { headers, limited: undefined };
  headers['Retry-After'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
  const limited = new HttpError(
    429,
    'rate_limited',
    'Too many calls in a short time.',
    `Limit ${rateLimit} calls per ${windowMs / 1000} s for this access and tenant.`,
    'Wait for the Retry-After seconds, then retry with growing intervals.',
  );
  return { headers, limited };
}

function pruneOld(state: State, windowStart: number) {
  for (const [key, w] of state.windows) if (w.start < windowStart) state.windows.delete(key);
}
