import { describe, expect, it } from 'vitest';
import { escapeControl } from './terminal-escape.ts';

describe('escapeControl', () => {
  it('makes every C0, C1, DEL and line-separator character visible, leaving other text alone', () => {
    expect(escapeControl('\x1b[2J\x1b]0;title\x07\r\n\t\x7f\u009b31m\u2028 ok é ✓')).toBe(
      '\\e[2J\\e]0;title\\x07\\r\\n\\t\\x7f\\x9b31m\\u2028 ok é ✓',
    );
    for (let c = 0; c < 0xa0; c++) {
      if (c >= 0x20 && c < 0x7f) continue;
      const out = escapeControl(String.fromCharCode(c));
      expect([...out].every((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) < 0x7f)).toBe(true);
    }
  });
});
