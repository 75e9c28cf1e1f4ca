// Sliding-window-log rate limit, as a Redis sorted set per key would keep it (ZADD now, ZREMRANGEBYSCORE
// older than the window, ZCARD): one window per access (OAuth client) and one per tenant. The headers
// report the window closest to its limit; a refused call is not recorded (it does not extend the wait).
import { ApiError, type Call } from './call.ts';

const windows = new WeakMap<object, Map<string, number[]>>();

interface Verdict {
  limit: number;
  remaining: number;
  retryAfterS: number;
  allowed: boolean;
}

function look(store: Map<string, number[]>, key: string, limit: number, windowMs: number, now: number): Verdict {
  const log = (store.get(key) ?? []).filter((t) => t > now - windowMs);
  store.set(key, log);
  const oldest = log[0] ?? now;
  const retryAfterS = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
  return { limit, remaining: Math.max(0, limit - log.length), retryAfterS, allowed: log.length < limit };
}

function storeOf(call: Call): Map<string, number[]> {
  let store = windows.get(call.state);
  if (!store) {
    store = new Map();
    windows.set(call.state, store);
  }
  return store;
}

/** Counts the call against its access and (when known) its tenant; throws 429 when either window is full. */
export function admit(call: Call, scope: 'access' | 'tenant'): void {
  const { accessLimit, tenantLimit, windowMs } = call.state.options;
  const store = storeOf(call);
  const now = Date.now();
  const key = scope === 'access' ? `access:${call.clientId}` : `tenant:${call.tenant}`;
  const v = look(store, key, scope === 'access' ? accessLimit : tenantLimit, windowMs, now);
  const shown = Number(call.headers['x-ratelimit-remaining'] ?? Number.POSITIVE_INFINITY);
  if (!v.allowed) {
    call.headers['x-ratelimit-limit'] = String(v.limit);
    call.headers['x-ratelimit-remaining'] = '0';
    call.headers['retry-after'] = String(v.retryAfterS);
    throw new ApiError(
      'rate_limited',
      'too many calls in the current window',
      `${scope} limit ${v.limit} per ${windowMs / 1000} s`,
      'wait for Retry-After seconds, then retry with growing intervals',
    );
  }
  (store.get(key) ?? []).push(now);
  const remaining = v.remaining - 1;
  // Report the window closest to its limit (the access one on a tie: it is the one a partner manages).
  if (remaining < shown) {
    call.headers['x-ratelimit-limit'] = String(v.limit);
    call.headers['x-ratelimit-remaining'] = String(remaining);
  }
}
