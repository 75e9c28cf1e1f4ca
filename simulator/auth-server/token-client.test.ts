import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../app/serve.ts';
import { requestToken, TokenRequestError } from './token-client.ts';

describe('ncs token (library function)', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ port: 0 });
  });
  afterAll(() => running?.close());

  it('prints a token that the API accepts, or the whole answer as JSON', async () => {
    const token = await requestToken({
      baseUrl: running.baseUrl,
      clientId: 'catalog-reader',
      clientSecret: 'cr-sandbox-secret-1a2b3c4d5e6f7081',
    });
    expect(token).toMatch(/^ncs_at_/);
    const res = await fetch(`${running.baseUrl}/api/public/v1/providers`, {
      headers: { authorization: `Bearer ${token}`, 'x-service-tenant': 'harbour-kitchens' },
    });
    expect(res.status).toBe(200);
    const json = JSON.parse(
      await requestToken({
        // The interface's base URL works as well as the origin: the token endpoint is found from either.
        baseUrl: `${running.baseUrl}/api/public/v1/`,
        clientId: 'harbour-backend',
        clientSecret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60',
        scope: 'catalog:read,audit:read',
        json: true,
      }),
    );
    expect(json).toMatchObject({
      token_type: 'Bearer',
      scope: 'catalog:read audit:read',
      tenants: ['harbour-kitchens'],
    });
  });

  it('reports refusals with the OAuth error and never the secret', async () => {
    const err = await requestToken({
      baseUrl: running.baseUrl,
      clientId: 'harbour-backend',
      clientSecret: 'my-wrong-secret-123456',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokenRequestError);
    expect((err as TokenRequestError).error).toBe('invalid_client');
    expect((err as Error).message).not.toContain('my-wrong-secret');
    await expect(requestToken({ baseUrl: 'http://127.0.0.1:1', clientId: 'a', clientSecret: 'b' })).rejects.toThrow(
      /cannot reach/,
    );
  });
});
