// A sliding-window log per access (client, tenant, environment): each key keeps the instants of its calls in
// the last window; a call is admitted while fewer than `limit` fall inside it. No fixed window edges, so a
// client cannot double its rate across a boundary.
export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export class SlidingWindow {
  readonly limit: number;
  readonly windowMs: number;
  private readonly log = new Map<string, number[]>();

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  take(key: string, now: number = Date.now()): RateDecision {
    const since = now - this.windowMs;
    const calls = (this.log.get(key) ?? []).filter((t) => t > since);
    const policy = `${this.limit};w=${Math.max(1, Math.round(this.windowMs / 1000))}`;
    if (calls.length >= this.limit) {
      this.log.set(key, calls);
      const oldest = calls[0] ?? now;
      // Whole seconds, rounded up, at least one: the wait until the oldest call leaves the window.
      const wait = Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
      return {
        allowed: false,
        headers: {
          'x-ratelimit-limit': String(this.limit),
          'x-ratelimit-remaining': '0',
          'retry-after': String(wait),
          'ratelimit-policy': policy,
        },
      };
    }
    calls.push(now);
    this.log.set(key, calls);
    return {
      allowed: true,
      headers: {
        'x-ratelimit-limit': String(this.limit),
        'x-ratelimit-remaining': String(this.limit - calls.length),
        'ratelimit-policy': policy,
      },
    };
  }
}
