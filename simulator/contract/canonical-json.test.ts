import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(canonicalJson(JSON.parse('{ "x" : "é", "__proto__": 1 }'))).toBe('{"__proto__":1,"x":"é"}');
  });
  it('equal values give equal text regardless of key order', () => {
    expect(canonicalJson({ a: 1, b: { c: [1, 2] } })).toBe(canonicalJson({ b: { c: [1, 2] }, a: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
