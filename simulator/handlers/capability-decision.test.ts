import { beforeAll, describe, expect, it } from 'vitest';
import { createCatalogStore } from '../state/catalog-store.ts';
import { loadFixtures } from '../app/fixtures-loader.ts';
import { DECISION_RULES, decideCapability } from './capability-decision.ts';

describe('capability decision table', () => {
  const catalog = createCatalogStore();
  beforeAll(() => catalog.load(loadFixtures()));
  const q = (capability: string, environment: 'sandbox' | 'production' = 'sandbox') => ({
    connectorId: 'tillcraft-pos-cloud',
    capability,
    environment,
  });
  const reason = (
    capability: string,
    connections: { state: string; capabilities: string[] }[] = [],
    env?: 'production',
  ) => decideCapability(catalog, q(capability, env), connections).reason.split(':')[0];

  it('walks the rules in order', () => {
    expect(reason('no.such')).toBe('unknown_capability');
    expect(reason('delivery.dispatch')).toBe('not_offered');
    expect(reason('payments.refund', [], 'production')).toBe('restricted_in_environment');
    expect(reason('orders.read', [{ state: 'revoked', capabilities: ['orders.read'] }])).toBe('connection_revoked');
    expect(reason('orders.read', [{ state: 'paused', capabilities: ['orders.read'] }])).toBe('connection_paused');
    expect(reason('orders.create', [{ state: 'active', capabilities: ['orders.read'] }])).toBe('not_booked');
    expect(reason('orders.read', [{ state: 'active', capabilities: ['orders.read'] }])).toBe('allowed');
    expect(reason('orders.read')).toBe('allowed');
  });

  it('one live connection is enough, and flags come from the catalog', () => {
    const d = decideCapability(catalog, q('payments.capture'), [
      { state: 'paused', capabilities: ['payments.capture'] },
      { state: 'active', capabilities: ['payments.capture'] },
    ]);
    expect(d).toMatchObject({ allowed: true, critical: true, idempotencyRequired: true });
  });

  it('every rule has a reason code and text', () => {
    expect(new Set(DECISION_RULES.map((r) => r.reason)).size).toBe(DECISION_RULES.length);
  });
});
