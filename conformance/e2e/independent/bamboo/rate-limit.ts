// The quota layer (tower-governor in the original), keyed by access, tenant and environment (or by peer
// address before authentication). Two algorithms, both with X-RateLimit-Limit / -Remaining on every
// counted answer and Retry-After (whole seconds) on a 429:
// - `window` (default): a fixed window of windowMs holding rateLimit calls;
// - `gcra`: governor's generic cell rate algorithm, one cell back every windowMs / rateLimit, a burst of
//   rateLimit; Remaining is the burst capacity left now, so it climbs back between calls.
import type { State } from './state.ts';
import type { Call } from './wire.ts';

export interface Bucket {
  windowStart: number;
  used: number;
  /** GCRA's theoretical arrival time of the next cell. */
  tat: number;
}

function fixedWindow(state: State, b: Bucket, now: number): { allowed: boolean; remaining: number; waitMs: number } {
  const { rateLimit, windowMs } = state.options;
  if (now - b.windowStart >= windowMs) {
    b.windowStart = now;
    b.used = 0;
  }
  const allowed = b.used < rateLimit;
  if (allowed) b.used++;
  return { allowed, remaining: rateLimit - b.used, waitMs: b.windowStart + windowMs - now };
}

function gcra(state: State, b: Bucket, now: number): { allowed: boolean; remaining: number; waitMs: number } {
  const { rateLimit, windowMs } = state.options;
  const interval = windowMs / rateLimit;
  const next = Math.max(b.tat, now) + interval;
  const allowed = next - now <= windowMs;
  if (allowed) b.tat = next;
  const used = Math.max(b.tat, now) - now;
  return { allowed, remaining: Math.max(0, Math.floor((windowMs - used) / interval)), waitMs: next - windowMs - now };
}

/** Counts the call against `key`; sets the headers; answers whether it may pass. */
export function takeQuota(state: State, call: Call, key: string): boolean {
  const now = Date.now();
  let b = state.rate.get(key);
  if (!b) {
    b = { windowStart: now, used: 0, tat: now };
    state.rate.set(key, b);
  }
  const r = state.options.rateAlgorithm === 'gcra' ? gcra(state, b, now) : fixedWindow(state, b, now);
  call.headers['x-ratelimit-limit'] = String(state.options.rateLimit);
  call.headers['x-ratelimit-remaining'] = String(r.remaining);
  if (!r.allowed) call.headers['retry-after'] = String(Math.max(1, Math.ceil(r.waitMs / 1000)));
  return r.allowed;
}
