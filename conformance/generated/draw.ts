import fc from 'fast-check';

/** A 31-bit seed for one named draw: the run's seed mixed with the name (FNV-1a), so draws are independent. */
export function seedFor(runSeed: number, name: string): number {
  let h = 0x811c9dc5 ^ runSeed;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) & 0x7fffffff;
}

/**
 * `count` values of `arb`, the same for the same seed and name.
 * @example draw(fc.integer(), 42, 'connectorId.wrong-type', 1) // [-7] on every run with seed 42
 */
export function draw<T>(arb: fc.Arbitrary<T>, runSeed: number, name: string, count = 1): T[] {
  return fc.sample(arb, { seed: seedFor(runSeed, name), numRuns: count });
}

/** Characters a probe's text is made of: letters and digits only, legal in every string field. */
const ALNUM = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''));

/** Text of exactly `length` characters: `prefix` (cut to fit), then drawn letters and digits. */
export function textOf(length: number, runSeed: number, name: string, prefix = ''): string {
  const head = prefix.slice(0, length);
  const rest = length - head.length;
  if (rest <= 0) return head;
  const [tail] = draw(fc.string({ unit: ALNUM, minLength: rest, maxLength: rest }), runSeed, name);
  return head + tail;
}

/** A JSON value of another type than `kind` (what a client sends when it gets the type wrong). */
export function wrongTypeOf(kind: 'string' | 'array' | 'enum', runSeed: number, name: string): unknown {
  const arb =
    kind === 'array'
      ? fc.oneof(fc.string({ unit: ALNUM, minLength: 2, maxLength: 12 }), fc.integer(), fc.boolean())
      : fc.oneof(fc.integer(), fc.boolean(), fc.constant({}), fc.array(fc.integer(), { minLength: 1, maxLength: 3 }));
  return draw(arb, runSeed, name)[0];
}

/** Printable ASCII plus space: the characters a header value can carry, the universe of a pattern's complement. */
const PRINTABLE = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i));

/**
 * Every printable character the pattern's character class does not allow, e.g. for
 * ^[A-Za-z0-9._:-]{8,128}$ the space and !"#$%&'()*+,/;<=>?@[\]^`{|}~ (a whole class, not a sample).
 * @example classComplement(/^[a-z]{2,4}$/).includes('A') // true
 */
export function classComplement(pattern: RegExp): string[] {
  const cls = /\[[^\]]+\]/.exec(pattern.source)?.[0];
  if (!cls) return [];
  const one = new RegExp(`^${cls}$`);
  return PRINTABLE.filter((c) => !one.test(c));
}

/** The {min,max} repetition of a single-class pattern like ^[…]{8,128}$, if it has one. */
export function patternLength(pattern: RegExp): { min: number; max: number } | undefined {
  const m = /\{(\d+),(\d+)\}\$?$/.exec(pattern.source);
  return m ? { min: Number(m[1]), max: Number(m[2]) } : undefined;
}

/** Built arbitraries by pattern: building one tokenises the pattern and precomputes its shrink slices. */
const matchingArbs = new Map<string, fc.Arbitrary<string>>();

/**
 * fast-check's stringMatching for `pattern`, built once per pattern in a process (an arbitrary is
 * immutable: sampling it with the same seed gives the same values whether it is new or reused).
 * @example draw(matchingArb(/^[a-z]{1,8}$/), 42, 'word') // the same word on every run with seed 42
 */
export function matchingArb(pattern: RegExp): fc.Arbitrary<string> {
  const key = `${pattern.flags}/${pattern.source}`;
  let arb = matchingArbs.get(key);
  if (!arb) {
    arb = fc.stringMatching(pattern);
    matchingArbs.set(key, arb);
  }
  return arb;
}

/** `count` texts matching `pattern` (fast-check's stringMatching), for the accepted side of a pattern. */
export const matching = (pattern: RegExp, runSeed: number, name: string, count: number) =>
  draw(matchingArb(pattern), runSeed, name, count);
