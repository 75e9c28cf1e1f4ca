import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { KIT_AJV_OPTIONS } from './ajv-options.ts';
import { unsafePatternReason } from './safe-regex.ts';

describe('unsafePatternReason', () => {
  it('refuses nested quantifiers and backreferences', () => {
    for (const p of ['^([A-Za-z0-9._:-]+)+Z$', '(a*)*', '((ab)+c?)*', '(x{2,})+', '(a)\\1', '((a+))+', '(b(a+)c)*'])
      expect(unsafePatternReason(p), p).toBeDefined();
  });

  it('lets ordinary patterns run', () => {
    for (const p of ['^[A-Za-z0-9._:-]{8,128}$', '^(foo|bar)+$', '^(ab)?c+$', '^[+*(]+$', '^\\d+(\\.\\d+)?$', '(a+)?b'])
      expect(unsafePatternReason(p), p).toBeUndefined();
  });

  it("the kit's Ajv refuses to compile such a pattern instead of hanging on it", () => {
    const ajv = new Ajv2020({ ...KIT_AJV_OPTIONS, strict: false });
    expect(() => ajv.compile({ type: 'string', pattern: '^([A-Za-z0-9._:-]+)+Z$' })).toThrow(/not run: .*nested/);
    expect(ajv.compile({ type: 'string', pattern: '^[a-z]+$' })('abc')).toBe(true);
  });
});
