// Leaky bucket per access + tenant + environment: each counted call adds one unit, the bucket drains
// continuously at capacity/window. A call that would overflow it is answered 429 with the time until one
// unit has leaked out (at least one second, whole seconds as Retry-After requires).
export interface BucketVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

export interface LeakyBuckets {
  take(key: string): BucketVerdict;
}

export function createLeakyBuckets(capacity: number, windowMs: number): LeakyBuckets {
  const perMs = capacity / windowMs;
  const buckets = new Map<string, { level: number; at: number }>();
  return {
    take(key) {
      const now = Date.now();
      const b = buckets.get(key) ?? { level: 0, at: now };
      b.level = Math.max(0, b.level - (now - b.at) * perMs);
      b.at = now;
      buckets.set(key, b);
      if (b.level + 1 > capacity) {
        const waitMs = (b.level + 1 - capacity) / perMs;
        return {
          allowed: false,
          limit: capacity,
          remaining: 0,
          retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
        };
      }
      b.level += 1;
      return {
        allowed: true,
        limit: capacity,
        remaining: Math.max(0, Math.floor(capacity - b.level)),
        retryAfterSeconds: 0,
      };
    },
  };
}

/**
 * The response headers of a counted call: limit and remaining always, Retry-After on a refusal. Header
 * names are lowercase, as Cowboy writes them (HTTP header names are case-insensitive).
 */
export function limitHeaders(v: BucketVerdict): Record<string, string> {
  const h: Record<string, string> = {
    'x-ratelimit-limit': String(v.limit),
    'x-ratelimit-remaining': String(v.remaining),
  };
  if (!v.allowed) h['retry-after'] = String(v.retryAfterSeconds);
  return h;
}
