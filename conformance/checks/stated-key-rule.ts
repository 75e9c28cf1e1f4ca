// The self-description's idempotency object is free-form, but where it states the key's pattern or lengths it
// states the Limits row: a client built from it must not refuse keys the interface allows, nor send ones it refuses.
import { IDEMPOTENCY_KEY_PATTERN, LIMITS } from '../../simulator/contract/limits.ts';
import { defineCheck } from '../runner/check.ts';
import { selfDescriptionExchange } from './support/self-description.ts';

const KEY = LIMITS.idempotencyKey;

/**
 * Keys on both sides of the Limits row: each length boundary and each kind of character it allows, and
 * characters it does not. Judged by the contract's own pattern, so the list cannot drift from it.
 * @example keySamples().filter((k) => k.allowed).length // the keys a stated pattern must accept
 */
export function keySamples(): { key: string; allowed: boolean }[] {
  const fill = (n: number, c = 'a') => c.repeat(n);
  const keys = [
    fill(KEY.min),
    fill(KEY.max),
    fill(KEY.min - 1),
    fill(KEY.max + 1),
    `${fill(KEY.min - 1)}Z`,
    `${fill(KEY.min - 1)}7`,
    ...['.', '_', ':', '-', ' ', '/', '+', '@', '~', 'é'].map((c) => `key${c}${fill(KEY.min)}`),
  ];
  return keys.map((key) => ({ key, allowed: IDEMPOTENCY_KEY_PATTERN.test(key) }));
}

/**
 * The key rules a free-form object states: a pattern (compiled) and lengths, by the names they go by.
 * @example statedRules({ pattern: '^[a-z]{8,128}$' })[0]?.accepts('abcdefgh') // true
 */
export interface StatedRule {
  what: string;
  kind: 'pattern' | 'min' | 'max';
  accepts: (k: string) => boolean;
}
export function statedRules(idempotency: Record<string, unknown>): StatedRule[] {
  const rules: StatedRule[] = [];
  for (const [name, value] of Object.entries(idempotency)) {
    if (/^(key)?(pattern|regex|regexp)$/i.test(name) && typeof value === 'string' && value.length <= 512) {
      try {
        const re = new RegExp(value, 'u');
        rules.push({ what: `${name} ${JSON.stringify(value)}`, kind: 'pattern', accepts: (k) => re.test(k) });
      } catch {
        // A pattern that does not compile is no rule a client can follow: it allows no key at all.
        rules.push({
          what: `${name} ${JSON.stringify(value)} (not a valid regular expression)`,
          kind: 'pattern',
          accepts: () => false,
        });
      }
    }
    if (/^(key)?min(imum)?(length|len)?$/i.test(name) && typeof value === 'number')
      rules.push({ what: `${name} ${value}`, kind: 'min', accepts: (k) => [...k].length >= value });
    if (/^(key)?max(imum)?(length|len)?$/i.test(name) && typeof value === 'number')
      rules.push({ what: `${name} ${value}`, kind: 'max', accepts: (k) => [...k].length <= value });
  }
  return rules;
}

/**
 * What a stated rule must say of a sample: a pattern the row's verdict; a bound only its own side of the
 * row's lengths (a minimum alone cannot refuse a character, nor a key too long).
 * @example expectedOf({ kind: 'min', … }, { key: 'abc', allowed: false }) // false
 */
export function expectedOf(rule: StatedRule, sample: { key: string; allowed: boolean }): boolean {
  const length = [...sample.key].length;
  if (rule.kind === 'min') return length >= KEY.min;
  if (rule.kind === 'max') return length <= KEY.max;
  return sample.allowed;
}

export const statedKeyRule = defineCheck({
  name: 'discovery.stated-key-rule',
  title: `where the self-description's idempotency object states the key's pattern or lengths, they allow exactly the keys of the Limits row (${KEY.pattern})`,
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['discovery', 'idempotency'],
  mutating: false,
  async run(ctx) {
    const ex = await selfDescriptionExchange(ctx);
    const idempotency = (ex.json as { data?: { idempotency?: unknown } } | undefined)?.data?.idempotency;
    if (!idempotency || typeof idempotency !== 'object' || Array.isArray(idempotency))
      ctx.skip('the self-description has no idempotency object');
    const rules = statedRules(idempotency as Record<string, unknown>);
    if (!rules.length)
      ctx.skip('the self-description states no pattern or length of the key (its object is free-form)');
    const samples = keySamples();
    for (const rule of rules) {
      const wrong = samples.filter((s) => rule.accepts(s.key) !== expectedOf(rule, s));
      ctx.expect.that(wrong.length === 0, {
        expected: `the self-description's ${rule.what} allows the keys the Limits row allows (${KEY.pattern})`,
        observed: wrong
          .slice(0, 4)
          .map(
            (s) =>
              `${JSON.stringify(s.key.length > 20 ? `${s.key.slice(0, 12)}…(${s.key.length})` : s.key)} ${rule.accepts(s.key) ? 'allowed' : 'refused'}`,
          )
          .join('; '),
        exchange: ex,
      });
    }
  },
});

export const statedKeyRuleChecks = [statedKeyRule];
