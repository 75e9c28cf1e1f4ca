import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createCodeStore } from './code-store.ts';

const grant = {
  clientId: 'app',
  redirectUri: 'http://127.0.0.1:1/cb',
  redirectUriSent: true,
  personId: 'p',
  tenants: ['t'],
  scopes: ['catalog:read' as const],
};

describe('authorization code store', () => {
  it('issues single-use codes that expire on the clock', () => {
    let now = 0;
    const store = createCodeStore(
      createClock(() => now),
      60,
    );
    const code = store.issue(grant);
    expect(code).toMatch(/^ncs_ac_/);
    expect(store.find(code)).toMatchObject({ kind: 'fresh', code: { clientId: 'app', expiresAt: 60_000 } });
    store.redeem(code, 'grant_1');
    expect(store.find(code)).toMatchObject({ kind: 'redeemed', code: { grant: 'grant_1' } });
    const late = store.issue(grant);
    now = 60_000;
    expect(store.find(late).kind).toBe('expired');
    expect(store.find('ncs_ac_guess').kind).toBe('unknown');
  });

  it('stays bounded under a flood of unredeemed codes', () => {
    let now = 0;
    const store = createCodeStore(
      createClock(() => now),
      60,
    );
    const first = store.issue(grant);
    for (let i = 0; i < 20_050; i++) store.issue(grant);
    // The oldest were dropped to make room; the store never grows past its cap.
    expect(store.find(first).kind).toBe('unknown');
    now += 1;
    expect(store.find(store.issue(grant)).kind).toBe('fresh');
  });
});
