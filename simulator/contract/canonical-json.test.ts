import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyString } from '../test-support/any-string.ts';
import { canonicalJson, jsonString } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é' }], c: true } })).toBe(
      '{"a":{"c":true,"d":[3,{"y":"é","z":null}]},"b":1}',
    );
    expect(canonicalJson({ seq: 1, at: '2026-07-01T00:00:00.000Z' })).toBe('{"at":"2026-07-01T00:00:00.000Z","seq":1}');
  });
  it('matches RFC 8785 on its own examples: UTF-16 key order, number forms, string escapes', () => {
    // RFC 8785 section 3.2.3 sorting example (keys compared as UTF-16 code units).
    const keys = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const text = canonicalJson(keys);
    const order = Object.values(keys).sort((x, y) => text.indexOf(`"${x}"`) - text.indexOf(`"${y}"`));
    expect(order).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
    expect(canonicalJson([1e21, 1e-7, -0, 0.1, 333333333.3333333])).toBe('[1e+21,1e-7,0,0.1,333333333.3333333]');
    expect(canonicalJson('\u2028"\\\n\u0001')).toBe('"\u2028\\"\\\\\\n\\u0001"');
  });
  it('leaves out undefined members, turns undefined array items into null, uses toJSON', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(canonicalJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
  });
  it('writes every string as JSON.stringify does, lone surrogates and controls included', () => {
    fc.assert(
      fc.property(anyString(), (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s));
        expect(canonicalJson({ [s]: [s] })).toBe(`{${JSON.stringify(s)}:[${JSON.stringify(s)}]}`);
      }),
      { numRuns: 2000 },
    );
    for (const s of ['', 'con_1', '"', '\\', '\u001f', '\u007f', '\ud800', '\udfff', '\ud83d\ude00', '\u2028'])
      expect(jsonString(s)).toBe(JSON.stringify(s));
  });
  it('refuses what JSON cannot carry', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(Infinity)).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(1n)).toThrow(TypeError);
  });
  it('is independent of key order and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(text).not.toMatch(/^\s|\s$/);
      }),
    );
    const shuffled = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).reverse());
    expect(canonicalJson(shuffled({ a: 1, b: 2, c: 3 }))).toBe(canonicalJson({ a: 1, b: 2, c: 3 }));
  });
});

describe('canonicalJson member order', () => {
  it('is Array#sort order (UTF-16 code units) for objects of any size, small ones sorted by hand', () => {
    fc.assert(
      fc.property(fc.uniqueArray(anyString(), { maxLength: 40 }), (names) => {
        const obj = Object.fromEntries(names.map((n, i) => [n, i]));
        const order = [...Object.keys(obj)].sort();
        expect(canonicalJson(obj)).toBe(`{${order.map((k) => `${JSON.stringify(k)}:${obj[k]}`).join(',')}}`);
      }),
    );
  });
});

describe('canonicalJson for idempotency fingerprints', () => {
  it('equal bodies give equal text regardless of key order; order of arrays matters', () => {
    expect(canonicalJson({ a: 1, b: { c: [1, 2] } })).toBe(canonicalJson({ b: { c: [1, 2] }, a: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson(JSON.parse('{ "x" : "é", "__proto__": 1 }'))).toBe('{"__proto__":1,"x":"é"}');
  });
});
