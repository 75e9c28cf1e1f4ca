import { describe, expect, it } from 'vitest';
import type { ApiError } from '../core/api-error.ts';
import type { AccessToken } from '../core/context.ts';
import { createClock } from '../lib/clock.ts';
import type { ClientRecord } from '../state/ports/clients.ts';
import { authStep } from './auth.ts';
import { okResponse, stepRun, testContext } from '../test-support/test-context.ts';

describe('authStep: the access behind a token', () => {
  let now = Date.parse('2026-11-26T00:00:00.000Z');
  const clock = createClock(() => now);
  const token = (clientId: string): AccessToken => ({
    clientId,
    tenants: ['t1'],
    scopes: [],
    environment: 'sandbox',
    issuedAt: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
  });
  const clients: Record<string, Partial<ClientRecord>> = {
    soon: { id: 'soon', owner: 'ops', expiresAt: '2026-11-26T01:00:00.000Z' },
    later: { id: 'later', owner: 'ops', expiresAt: '2026-12-31T00:00:00.000Z' },
  };
  const run = stepRun(
    authStep({
      tokens: { check: (t: string) => ({ kind: 'live' as const, record: token(t) }) },
      clients: { get: (id: string) => clients[id] as ClientRecord | undefined },
      clock,
      environment: 'sandbox',
    }),
  );
  const call = (clientId: string) =>
    run(testContext({ headers: { authorization: `Bearer ${clientId}`, 'x-service-tenant': 't1' } }), async () =>
      okResponse(),
    ).then(
      () => 'passed',
      (e: ApiError) => `${e.code}: ${e.detail}`,
    );

  it('refuses an access past its own expiry, judged for each access on the sandbox clock', async () => {
    // Accesses with different expiries in turn: each call is judged by its own access's date.
    expect(await call('soon')).toBe('passed');
    expect(await call('later')).toBe('passed');
    now += 2 * 3600_000;
    expect(await call('soon')).toBe('unauthorized: The access soon expired at 2026-11-26T01:00:00.000Z.');
    expect(await call('later')).toBe('passed');
    expect(await call('soon')).toMatch(/^unauthorized/);
    clients.soon = { ...clients.soon, expiresAt: '2027-01-01T00:00:00.000Z' };
    expect(await call('soon')).toBe('passed');
  });
});
