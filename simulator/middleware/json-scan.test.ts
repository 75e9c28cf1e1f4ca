import { describe, expect, it } from 'vitest';
import { parseJsonChecked, scanJson } from './json-scan.ts';

describe('scanJson', () => {
  it('finds a key given twice in one object, also when spelled with escapes', () => {
    expect(scanJson('{"a":1,"a":2}', 32)).toEqual({ kind: 'duplicate_key', key: 'a' });
    expect(scanJson('{"x":{"scopeLabel":"a","scope\\u004cabel":"b"}}', 32)).toEqual({
      kind: 'duplicate_key',
      key: 'scopeLabel',
    });
  });

  it('allows the same key in different objects, and key-like strings in values and arrays', () => {
    expect(scanJson('{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"a","d":["a","a"]}', 32)).toBeUndefined();
    expect(scanJson('{"a":"x,\\"a\\":1"}', 32)).toBeUndefined();
  });

  it('refuses nesting past the limit', () => {
    expect(scanJson(`${'['.repeat(33)}${']'.repeat(33)}`, 32)).toEqual({ kind: 'depth' });
    expect(scanJson(`${'['.repeat(32)}${']'.repeat(32)}`, 32)).toBeUndefined();
  });

  it('parseJsonChecked refuses exactly what scanJson and JSON.parse refuse, and parses the rest', () => {
    const samples = [
      '{"a":1,"a":2}',
      '{"x":{"scopeLabel":"a","scope\\u004cabel":"b"}}',
      '{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"a","d":["a","a"]}',
      '{"a":"x,\\"a\\":1"}',
      '{ "a" : 1 , "b" :\n{ "a" : [ 1 , { "c" : null } ] } }',
      '{"__proto__":{"a":1},"b":2}',
      '{"a":1,"b":{"c":2,"c":3}}',
      `${'['.repeat(33)}${']'.repeat(33)}`,
      `${'['.repeat(32)}${']'.repeat(32)}`,
      '{"a":1,}',
      '["a":1]',
      '"just a string"',
      '{"connectorId":"tillcraft-pos-cloud","environment":"sandbox","capabilities":["orders.read"]}',
    ];
    for (const text of samples) {
      const scanned = scanJson(text, 32);
      let parsed: unknown;
      let valid = true;
      try {
        parsed = JSON.parse(text);
      } catch {
        valid = false;
      }
      const expected = scanned
        ? { ok: false, problem: scanned }
        : valid
          ? { ok: true, value: parsed }
          : { ok: false, problem: { kind: 'invalid' } };
      expect(parseJsonChecked(text, 32), text).toEqual(expected);
    }
  });
});
