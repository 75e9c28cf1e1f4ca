import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../contract/canonical-json.ts';
import { canonicalHash } from './content-hash.ts';
import { textHash } from './observation.ts';

// canonicalHash must be exactly the hash of the canonical text it no longer writes: retries are
// recognised by equal numbers, and a different number for the same content would split them.
describe('canonicalHash', () => {
  test('equals textHash(canonicalJson(v)) for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalHash(v)).toBe(textHash(canonicalJson(v)));
      }),
      { numRuns: 2000 },
    );
  });

  test('strings that need escapes, lone surrogates and unusual numbers hash as their JSON text', () => {
    for (const v of [
      'quote " and \\ backslash',
      'tab\tnew\nline\u0001',
      'lone \ud800 surrogate',
      'pair \ud83d\ude00',
      { 'k"ey': ['\u001f', -0, 1e21, 1.5e-7, true, false, null] },
      { b: { d: 1, c: [] }, a: {}, '': '' },
      [undefined, () => 1],
      { skipped: undefined, kept: 1 },
    ])
      expect(canonicalHash(v)).toBe(textHash(canonicalJson(v)));
  });

  test('key order and spacing do not change it; content does', () => {
    expect(canonicalHash(JSON.parse('{"a":1, "b":[1,2]}'))).toBe(canonicalHash(JSON.parse('{"b":[1,2],"a":1}')));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: 2 }));
  });

  test('throws where canonicalJson throws', () => {
    expect(() => canonicalHash({ a: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => canonicalHash([1n])).toThrow(TypeError);
  });
});
