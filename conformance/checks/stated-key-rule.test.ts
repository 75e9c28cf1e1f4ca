import { describe, expect, it } from 'vitest';
import { expectedOf, keySamples, statedRules } from './stated-key-rule.ts';

describe('the key rules a self-description states (discovery.stated-key-rule)', () => {
  const agrees = (idempotency: Record<string, unknown>) => {
    const samples = keySamples();
    return statedRules(idempotency).every((r) => samples.every((s) => r.accepts(s.key) === expectedOf(r, s)));
  };
  it("samples both sides of the Limits row's pattern", () => {
    const samples = keySamples();
    expect(samples.filter((s) => s.allowed).length).toBeGreaterThanOrEqual(6);
    expect(samples.filter((s) => !s.allowed).length).toBeGreaterThanOrEqual(6);
  });
  it('accepts the row however it is spelled, and lengths that match', () => {
    expect(agrees({ pattern: '^[A-Za-z0-9._:-]{8,128}$' })).toBe(true);
    expect(agrees({ keyPattern: '^[\\w.:-]{8,128}$', minLength: 8, maxLength: 128, header: 'Idempotency-Key' })).toBe(
      true,
    );
  });
  it('finds a narrower or wider pattern, other lengths, and a pattern that does not compile', () => {
    expect(agrees({ pattern: '^[A-Za-z0-9_-]{16,64}$' })).toBe(false);
    expect(agrees({ regex: '^.{8,128}$' })).toBe(false);
    expect(agrees({ maxLength: 64 })).toBe(false);
    expect(agrees({ pattern: '^[A-Za-z0-9_:-.]{8,128}$' })).toBe(false);
  });
  it('reads nothing from names that are no key rule', () => {
    expect(statedRules({ header: 'Idempotency-Key', ttl: '24h', required: ['POST /connections'] })).toEqual([]);
  });
});
