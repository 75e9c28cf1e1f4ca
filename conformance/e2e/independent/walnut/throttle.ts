// Throttling classes after DRF's SimpleRateThrottle: a sliding history of request times per cache key.
// Three classes apply to every authenticated call: a per-user burst and sustained rate (user = OAuth client
// and tenant) and a scoped rate (one bucket per view scope: catalog, connections, webhooks, audit, keys).
// A throttled call is not recorded (DRF records only allowed requests).
import { fail } from './core.ts';

interface Rate {
  name: string;
  limit: number;
  windowMs: number;
}

export class Throttle {
  rates: Rate[];
  history = new Map<string, number[]>();

  constructor(limit: number, windowMs: number) {
    this.rates = [
      { name: 'burst', limit, windowMs },
      { name: 'sustained', limit: limit * 10, windowMs: windowMs * 10 },
      { name: 'scope', limit, windowMs },
    ];
  }

  private key(rate: Rate, ident: string, scope: string): string {
    return rate.name === 'scope' ? `throttle_scope_${scope}_${ident}` : `throttle_${rate.name}_${ident}`;
  }

  private recent(key: string, windowMs: number, now: number): number[] {
    const h = (this.history.get(key) ?? []).filter((t) => t > now - windowMs);
    this.history.set(key, h);
    return h;
  }

  /** The state of the tightest class without counting (headers for answers refused before throttling). */
  peek(ident: string, scope: string): Record<string, string> {
    const now = Date.now();
    let best: { rate: Rate; remaining: number } | undefined;
    for (const rate of this.rates) {
      const remaining = Math.max(0, rate.limit - this.recent(this.key(rate, ident, scope), rate.windowMs, now).length);
      if (!best || remaining < best.remaining) best = { rate, remaining };
    }
    return best ? this.headers(best.rate, best.remaining) : {};
  }

  /** Counts the call, or raises 429 with Retry-After (whole seconds, at least 1). */
  allow(ident: string, scope: string): Record<string, string> {
    const now = Date.now();
    let tightest: { rate: Rate; remaining: number } | undefined;
    for (const rate of this.rates) {
      const h = this.recent(this.key(rate, ident, scope), rate.windowMs, now);
      if (h.length >= rate.limit) {
        const oldest = h[0] ?? now;
        const wait = Math.max(1, Math.ceil((oldest + rate.windowMs - now) / 1000));
        fail('rate_limited', `Request was throttled (${rate.name}). Expected available in ${wait} seconds.`, {
          ...this.headers(rate, 0),
          'Retry-After': String(wait),
        });
      }
      const remaining = rate.limit - h.length - 1;
      if (!tightest || remaining < tightest.remaining) tightest = { rate, remaining };
    }
    for (const rate of this.rates) this.history.get(this.key(rate, ident, scope))?.push(now);
    return tightest ? this.headers(tightest.rate, tightest.remaining) : {};
  }

  private headers(rate: Rate, remaining: number): Record<string, string> {
    return {
      'X-RateLimit-Limit': String(rate.limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Scope': rate.name,
      'X-RateLimit-Window': String(Math.ceil(rate.windowMs / 1000)),
    };
  }
}
