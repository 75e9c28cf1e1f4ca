import { describe, expect, it } from 'vitest';
import { scanJson } from './json-scan.ts';

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
});
