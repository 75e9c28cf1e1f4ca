import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DateTime } from './date-time.ts';

describe('DateTime (RFC 3339, as the interface\'s "date-time")', () => {
  it('takes any offset, any fraction of a second and lower-case t and z (RFC 3339 5.6)', () => {
    for (const v of [
      '2026-07-01T10:00:00Z',
      '2026-07-01T10:00:00.123+02:00',
      '2026-07-01T10:00:00.123456Z',
      '2026-07-01t10:00:00.123456z',
      '2026-07-01t10:00:00-05:30',
    ])
      expect(DateTime.safeParse(v).success, v).toBe(true);
  });

  it('refuses what RFC 3339 does not allow', () => {
    for (const v of [
      '2026-07-01 10:00:00Z',
      '2026-07-01T10:00:00+0200',
      '2026-02-30T10:00:00Z',
      '2026-07-01T10:00Z',
      'x',
    ])
      expect(DateTime.safeParse(v).success, v).toBe(false);
  });

  it('is published as a date-time whose pattern takes both cases', () => {
    const schema = z.toJSONSchema(DateTime) as { format?: string; pattern?: string };
    expect(schema.format).toBe('date-time');
    expect(new RegExp(schema.pattern ?? '^$').test('2026-07-01t10:00:00.5z')).toBe(true);
  });
});
