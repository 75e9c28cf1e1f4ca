import { describe, expect, it } from 'vitest';
import { isSameSecret } from './runs.ts';

describe('isSameSecret (the runs front compares the admin token in constant time)', () => {
  it('accepts only the secret itself, whatever the lengths', () => {
    expect(isSameSecret('ncs_admin_abc', 'ncs_admin_abc')).toBe(true);
    expect(isSameSecret('ncs_admin_abd', 'ncs_admin_abc')).toBe(false);
    expect(isSameSecret('ncs_admin_ab', 'ncs_admin_abc')).toBe(false);
    expect(isSameSecret('', 'ncs_admin_abc')).toBe(false);
    expect(isSameSecret(undefined, 'ncs_admin_abc')).toBe(false);
  });
});
