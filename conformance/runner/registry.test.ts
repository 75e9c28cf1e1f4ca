import { describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.ts';
import { defineCheck, type CheckDef } from './check.ts';
import { createRegistry, selectChecks } from './registry.ts';
import { INTERFACE_SECTIONS } from './sections.ts';

const base = {
  title: 't',
  severity: 'MUST' as const,
  section: 'Errors' as const,
  tags: ['x'],
  mutating: false,
  run: async () => undefined,
};

describe('check registry', () => {
  it('accepts <area>.<rule> names and interface headings only', () => {
    expect(defineCheck({ ...base, name: 'errors.some-rule' }).name).toBe('errors.some-rule');
    expect(() => defineCheck({ ...base, name: 'NoArea' })).toThrow(/<area>\.<rule>/);
    expect(() => defineCheck({ ...base, name: 'errors.Bad_Case' })).toThrow(/kebab/);
    expect(() => defineCheck({ ...base, name: 'errors.x', section: 'Made up' as never })).toThrow(/not a heading/);
    expect(() => defineCheck({ ...base, name: 'errors.x', severity: 'MAY' as never })).toThrow(/MUST or SHOULD/);
  });

  it('refuses two checks of the same name', () => {
    const a = defineCheck({ ...base, name: 'a.one' });
    expect(() => createRegistry([a, defineCheck({ ...base, name: 'a.one' })])).toThrow(/two checks are named a\.one/);
  });

  it('selects by name, tag or section with a case-insensitive pattern', () => {
    const checks: CheckDef[] = [
      defineCheck({ ...base, name: 'errors.one', tags: ['security'] }),
      defineCheck({ ...base, name: 'limits.two', section: 'Limits' }),
      defineCheck({ ...base, name: 'auth.three' }),
    ];
    expect(selectChecks(checks, 'ERRORS\\.').map((c) => c.name)).toEqual(['errors.one']);
    expect(selectChecks(checks, 'security').map((c) => c.name)).toEqual(['errors.one']);
    expect(selectChecks(checks, '^limits$').map((c) => c.name)).toEqual(['limits.two']);
    expect(selectChecks(checks).length).toBe(3);
  });

  it('the kit registers unique checks, each naming a heading of the interface', () => {
    expect(new Set(CHECKS.map((c) => c.name)).size).toBe(CHECKS.length);
    for (const c of CHECKS) expect(INTERFACE_SECTIONS as readonly string[]).toContain(c.section);
    expect(CHECKS.length).toBeGreaterThanOrEqual(25);
  });
});
