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
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      return JSON.stringify(value);
    case 'object': {
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return canonicalJson(withJson.toJSON());
      if (Array.isArray(value))
        return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v))).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const members: string[] = [];
      for (const key of Object.keys(obj).sort()) {
        const v = obj[key];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        members.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}
