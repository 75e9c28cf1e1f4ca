// Token bucket per access + tenant + environment (both base addresses share it): capacity 50,
// refilled at 25 tokens per second. Remaining is the whole tokens left after this call.
export interface RateOptions {
  capacity: number;
  refillPerSecond: number;
}

export class Buckets {
  private buckets = new Map<string, { tokens: number; at: number }>();
  options: RateOptions;
  constructor(options: RateOptions) {
    this.options = options;
  }

  private refill(key: string) {
    const now = Date.now();
    const b = this.buckets.get(key) ?? { tokens: this.options.capacity, at: now };
    b.tokens = Math.min(this.options.capacity, b.tokens + ((now - b.at) / 1000) * this.options.refillPerSecond);
    b.at = now;
    this.buckets.set(key, b);
    return b;
  }

  /** Takes one token: the headers to send, and whether the call may go on. */
  take(key: string): { allowed: boolean; headers: Record<string, string> } {
    const b = this.refill(key);
    const headers: Record<string, string> = { 'x-ratelimit-limit': String(this.options.capacity) };
    if (b.tokens >= 1) {
      b.tokens -= 1;
      headers['x-ratelimit-remaining'] = String(Math.floor(b.tokens));
      return { allowed: true, headers };
    }
    headers['x-ratelimit-remaining'] = '0';
    headers['retry-after'] = String(Math.max(1, Math.ceil((1 - b.tokens) / this.options.refillPerSecond)));
    return { allowed: false, headers };
  }

  /** The headers of an answer given before the caller was identified (nothing taken). */
  peek(): Record<string, string> {
    return {
      'x-ratelimit-limit': String(this.options.capacity),
      'x-ratelimit-remaining': String(this.options.capacity),
    };
  }
}
