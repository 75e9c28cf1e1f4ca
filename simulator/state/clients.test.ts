import { describe, expect, it } from 'vitest';
import type { FixtureClient } from '../contract/fixtures.ts';
import { createClientRegistry } from './clients.ts';

const base = {
  tenants: ['t1'],
  scopes: ['catalog:read'],
  environment: 'sandbox',
  purpose: 'tests',
  owner: 'qa',
  expiresAt: '2030-01-01T00:00:00Z',
} satisfies Partial<FixtureClient>;
const clients: FixtureClient[] = [
  { ...base, id: 'backend', name: 'Backend', type: 'confidential', secret: 'sk_sandbox_0123456789abcdef' },
  { ...base, id: 'spa', name: 'Single page', type: 'public' },
];

describe('client registry', () => {
  const registry = createClientRegistry(clients);

  it('accepts the declared secret and nothing else', () => {
    expect(registry.verifySecret('backend', 'sk_sandbox_0123456789abcdef')).toBe(true);
    expect(registry.verifySecret('backend', 'sk_sandbox_0123456789abcdeX')).toBe(false);
    expect(registry.verifySecret('backend', '')).toBe(false);
    expect(registry.verifySecret('nobody', 'sk_sandbox_0123456789abcdef')).toBe(false);
  });

  it('has no secret to check for a public client', () => {
    expect(registry.verifySecret('spa', '')).toBe(false);
  });

  it('never keeps the secret in plain', () => {
    const kept = JSON.stringify(registry.all(), (_k, v) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
    expect(kept).not.toContain('sk_sandbox_0123456789abcdef');
    expect(registry.get('backend')).not.toHaveProperty('secret');
  });

  it('hashes under a key of its own: two registries keep different hashes of one secret', () => {
    const other = createClientRegistry(clients);
    expect(other.get('backend')?.secretHash?.equals(registry.get('backend')?.secretHash as Buffer)).toBe(false);
  });
});
