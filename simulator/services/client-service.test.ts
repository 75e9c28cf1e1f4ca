import { describe, expect, it } from 'vitest';
import type { FixtureClient } from '../contract/fixtures.ts';
import { createClientStore } from '../state/clients.ts';
import { networkLike } from '../test-support/network-like.ts';
import { createClientService } from './client-service.ts';

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

describe.each([
  ['memory', false],
  ['a repository answering later', true],
])('client service over %s', (_name, later) => {
  const make = () => {
    const memory = createClientStore();
    return { memory, service: createClientService({ repository: later ? networkLike(memory) : memory, clients }) };
  };
  const { memory, service } = make();

  it('accepts the declared secret and nothing else', async () => {
    expect(await service.verifySecret('backend', 'sk_sandbox_0123456789abcdef')).toBe(true);
    expect(await service.verifySecret('backend', 'sk_sandbox_0123456789abcdeX')).toBe(false);
    expect(await service.verifySecret('backend', '')).toBe(false);
    expect(await service.verifySecret('nobody', 'sk_sandbox_0123456789abcdef')).toBe(false);
  });

  it('has no secret to check for a public client', async () => {
    expect(await service.verifySecret('spa', '')).toBe(false);
  });

  it('never keeps the secret in plain, in the service or its repository', async () => {
    const kept = JSON.stringify(await service.all(), (_k, v) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
    expect(kept).not.toContain('sk_sandbox_0123456789abcdef');
    expect(kept).toContain('Single page');
    expect(await service.get('backend')).not.toHaveProperty('secret');
    expect(memory.get('backend')).toHaveProperty('secretHash');
  });

  it('hashes under a key of its own: two services keep different hashes of one secret', async () => {
    const other = make().service;
    const a = (await other.get('backend'))?.secretHash;
    const b = (await service.get('backend'))?.secretHash;
    expect(a && b && a.equals(b)).toBe(false);
  });
});

describe('client repository (memory)', () => {
  it('keeps records by id, answers at once, and clears', () => {
    const repo = createClientStore();
    repo.insert({ ...base, id: 'a', name: 'A', type: 'public' });
    repo.insert({ ...base, id: 'a', name: 'A2', type: 'public' });
    expect(repo.get('a')).toMatchObject({ name: 'A2' });
    expect(repo.all()).toHaveLength(1);
    repo.clear();
    expect(repo.get('a')).toBeUndefined();
  });
});
