import { describe, expect, it } from 'vitest';
import type { FixtureClient } from '../contract/fixtures.ts';
import type { PlainRequest } from '../core/types.ts';
import { createClientService } from '../services/client-service.ts';
import { createClientStore } from '../state/clients.ts';
import { createClock } from '../lib/clock.ts';
import { authenticateClient } from './client-auth.ts';
import { OAuthError } from './oauth-error.ts';

const base = {
  tenants: ['t'],
  scopes: ['catalog:read' as const],
  environment: 'sandbox' as const,
  purpose: 'tests',
  owner: 'owner@example.com',
  expiresAt: '2030-01-01T00:00:00Z',
};
const clients = createClientService({
  repository: createClientStore(),
  clients: [
    { ...base, id: 'conf', name: 'Conf', type: 'confidential' as const, secret: 'sec ret:with+special%chars' },
    { ...base, id: 'mobile', name: 'Mobile', type: 'public' as const },
    {
      ...base,
      id: 'old',
      name: 'Old',
      type: 'confidential' as const,
      secret: 'old-secret-0123456789',
      expiresAt: '2020-01-01T00:00:00Z',
    },
  ] satisfies FixtureClient[],
});
const deps = { clients, clock: createClock() };
const req = (authorization?: string): PlainRequest => ({
  method: 'POST',
  path: '/oauth/token',
  query: {},
  headers: authorization ? { authorization } : {},
});
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function failure(fn: () => unknown): Promise<OAuthError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof OAuthError) return err;
    throw err;
  }
  throw new Error('expected an OAuthError');
}

describe('client authentication', async () => {
  it('accepts client_secret_basic (form-encoded, RFC 6749 2.3.1), client_secret_post and none for public clients', async () => {
    expect((await authenticateClient(req(basic('conf', 'sec ret:with+special%chars')), {}, deps)).method).toBe(
      'client_secret_basic',
    );
    expect(
      (await authenticateClient(req(), { client_id: 'conf', client_secret: 'sec ret:with+special%chars' }, deps))
        .method,
    ).toBe('client_secret_post');
    expect((await authenticateClient(req(), { client_id: 'mobile' }, deps)).method).toBe('none');
  });

  it('refuses with invalid_client (401 + Basic challenge) and never repeats the secret', async () => {
    for (const fn of [
      () => authenticateClient(req(basic('conf', 'nope')), {}, deps),
      () => authenticateClient(req(), { client_id: 'conf' }, deps),
      () => authenticateClient(req(), { client_id: 'nobody', client_secret: 'nope' }, deps),
      () => authenticateClient(req(), { client_id: 'mobile', client_secret: 'nope' }, deps),
      () => authenticateClient(req('Basic !!!'), {}, deps),
      () => authenticateClient(req('Bearer abc'), {}, deps),
      () => authenticateClient(req(), {}, deps),
    ]) {
      const err = await failure(fn);
      expect(err.code).toBe('invalid_client');
      expect(err.status).toBe(401);
      expect(err.headers['www-authenticate']).toMatch(/^Basic realm=/);
      expect(err.message).not.toContain('nope');
    }
  });

  it('refuses two methods at once and a mismatching client_id as invalid_request', async () => {
    expect((await failure(() => authenticateClient(req(basic('conf', 'x')), { client_secret: 'x' }, deps))).code).toBe(
      'invalid_request',
    );
    expect((await failure(() => authenticateClient(req(basic('conf', 'x')), { client_id: 'mobile' }, deps))).code).toBe(
      'invalid_request',
    );
  });

  it('refuses an expired access after checking its secret, naming the owner', async () => {
    const err = await failure(() =>
      authenticateClient(req(), { client_id: 'old', client_secret: 'old-secret-0123456789' }, deps),
    );
    expect(err.code).toBe('invalid_client');
    expect(err.message).toContain('owner@example.com');
    expect(
      (await failure(() => authenticateClient(req(), { client_id: 'old', client_secret: 'wrong' }, deps))).message,
    ).not.toContain('owner@');
  });
});
