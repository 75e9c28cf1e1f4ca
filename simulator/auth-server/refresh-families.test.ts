import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createRefreshFamilies } from './refresh-families.ts';

const grant = {
  clientId: 'app',
  personId: 'p',
  tenants: ['t'],
  scopes: ['catalog:read' as const],
  environment: 'sandbox' as const,
};

describe('refresh token families', () => {
  it('rotates: each token is valid once and hands over to the next', () => {
    const families = createRefreshFamilies(
      createClock(() => 0),
      3600,
    );
    const { family, refreshToken: r1 } = families.start(grant);
    const step = families.rotate(r1, 'app');
    expect(step).toMatchObject({ kind: 'rotated', family, grant });
    const r2 = step.kind === 'rotated' ? step.refreshToken : '';
    expect(r2).not.toBe(r1);
    expect(families.rotate(r2, 'app').kind).toBe('rotated');
  });

  it('a spent token coming back revokes the family, including its newest token', () => {
    const families = createRefreshFamilies(
      createClock(() => 0),
      3600,
    );
    const { family, refreshToken: r1 } = families.start(grant);
    const r2 = (families.rotate(r1, 'app') as { refreshToken: string }).refreshToken;
    expect(families.rotate(r1, 'app')).toEqual({ kind: 'reused', family });
    expect(families.rotate(r2, 'app').kind).toBe('revoked');
  });

  it('is bound to its client, expires on the clock, and a failed check spends nothing', () => {
    let now = 0;
    const families = createRefreshFamilies(
      createClock(() => now),
      60,
    );
    const { refreshToken } = families.start(grant);
    expect(families.rotate(refreshToken, 'intruder').kind).toBe('other-client');
    expect(() =>
      families.rotate(refreshToken, 'app', () => {
        throw new Error('scope refused');
      }),
    ).toThrow('scope refused');
    now = 59_999;
    const next = families.rotate(refreshToken, 'app');
    expect(next.kind).toBe('rotated');
    now = 59_999 + 60_000;
    expect(families.rotate((next as { refreshToken: string }).refreshToken, 'app').kind).toBe('expired');
    expect(families.rotate('ncs_rt_guess', 'app').kind).toBe('unknown');
  });

  it('revokes by token only for the client that holds it', () => {
    const families = createRefreshFamilies(createClock(() => 0));
    const { family, refreshToken } = families.start(grant);
    expect(families.revokeByToken(refreshToken, 'other')).toBeUndefined();
    expect(families.revokeByToken(refreshToken, 'app')).toBe(family);
    expect(families.rotate(refreshToken, 'app').kind).toBe('revoked');
  });
});
