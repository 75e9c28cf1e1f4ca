import { describe, expect, it } from 'vitest';
import { InterfaceConnection, InterfaceIdempotencyKeyResult } from './interface-schemas.ts';

describe('interface records', () => {
  it('take date-times as RFC 3339 writes them (microseconds, lower-case t and z), from the contract', () => {
    const at = '2026-07-01t10:00:00.123456z';
    const connection = {
      id: 'connections/c00000001',
      connectorId: 'c1',
      environment: 'sandbox',
      scopeLabel: 'venue',
      state: 'PENDING',
      capabilities: [],
      nextStep: '',
      createdAt: at,
    };
    expect(InterfaceConnection.safeParse(connection).success).toBe(true);
    expect(
      InterfaceIdempotencyKeyResult.safeParse({ idempotencyKey: 'k', operation: 'o', expiresAt: at }).success,
    ).toBe(true);
    expect(InterfaceConnection.safeParse({ ...connection, createdAt: '2026-07-01 10:00:00Z' }).success).toBe(false);
  });
});
