// Fixed-window counters (like a Workers rate-limiting binding): one per access+tenant+environment, and one
// per client address for public routes and refusals before authentication. Every answer carries the headers.
import type { State } from './state.ts';

const windows = new WeakMap<State, Map<string, { start: number; count: number }>>();

export interface RateResult {
  limited: boolean;
  headers: Record<string, string>;
}

export function take(state: State, bucket: string, now = Date.now()): RateResult {
  // Anonymous buckets (per client address) may have their own, tighter limit: the edge shields public routes.
  const rateLimit = bucket.startsWith('ip:')
    ? state.opts.publicRateLimit || state.opts.rateLimit
    : state.opts.rateLimit;
  let map = windows.get(state);
  if (!map) {
    map = new Map();
    windows.set(state, map);
  }
  const { windowMs } = state.opts;
  if (state.opts.tokenBucket) return bucketTake(state, bucket, rateLimit, windowMs, now);
  const start = now - (now % windowMs);
  let w = map.get(bucket);
  if (!w || w.start !== start) {
    w = { start, count: 0 };
    map.set(bucket, w);
  }
  w.count++;
  const resetMs = start + windowMs - now;
  const limited = w.count > rateLimit;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(rateLimit),
    'X-RateLimit-Remaining': String(Math.max(0, rateLimit - w.count)),
    'X-RateLimit-Reset': String(Math.ceil((start + windowMs) / 1000)),
  };
  // Retry-After in whole seconds, at least 1: the wait until this window ends.
  if (limited) headers['Retry-After'] = String(Math.max(1, Math.ceil(resetMs / 1000)));
  return { limited, headers };
}

const buckets = new WeakMap<State, Map<string, { tokens: number; at: number }>>();

/** A token bucket (GCRA-like): capacity `limit`, refilled continuously over `windowMs`; Remaining may rise. */
function bucketTake(state: State, bucket: string, limit: number, windowMs: number, now: number): RateResult {
  let map = buckets.get(state);
  if (!map) {
    map = new Map();
    buckets.set(state, map);
  }
  const rate = limit / windowMs;
  const b = map.get(bucket) ?? { tokens: limit, at: now };
  b.tokens = Math.min(limit, b.tokens + (now - b.at) * rate);
  b.at = now;
  map.set(bucket, b);
  const limited = b.tokens < 1;
  if (!limited) b.tokens -= 1;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.floor(b.tokens)),
    'X-RateLimit-Reset': String(Math.ceil((now + (limit - b.tokens) / rate) / 1000)),
  };
  if (limited) headers['Retry-After'] = String(Math.max(1, Math.ceil((1 - b.tokens) / rate / 1000)));
  return { limited, headers };
}
