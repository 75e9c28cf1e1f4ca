import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../app/serve.ts';
import { rateLimitOption } from './serve-command.ts';
import { requestToken, TokenRequestError, tokenOrigin } from './token-command.ts';

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
        baseUrl: `${running.baseUrl}/`,
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

describe('--rate-limit options', () => {
  it('parses calls/seconds, off and presets; refuses the rest', () => {
    expect(rateLimitOption({})).toBeUndefined();
    expect(rateLimitOption({ rateLimit: '100/10' })).toEqual({ limit: 100, windowSeconds: 10 });
    expect(rateLimitOption({ rateLimit: 'off' })).toBe(false);
    expect(rateLimitOption({ rateLimitPreset: 'low' })).toEqual({ limit: 5, windowSeconds: 10 });
    expect(() => rateLimitOption({ rateLimit: '100' })).toThrow(/<calls>\/<seconds>/);
    expect(() => rateLimitOption({ rateLimit: '0/10' })).toThrow(/>= 1/);
    expect(() => rateLimitOption({ rateLimitPreset: 'tiny' })).toThrow(/default, low/);
    expect(() => rateLimitOption({ rateLimit: '1/1', rateLimitPreset: 'low' })).toThrow(/not both/);
  });
});

describe('tokenOrigin', () => {
  it('drops trailing slashes and the /api/public/v1 prefix, nothing else', () => {
    expect(tokenOrigin('http://127.0.0.1:4010/api/public/v1/')).toBe('http://127.0.0.1:4010');
    expect(tokenOrigin('https://staging.example/')).toBe('https://staging.example');
    expect(tokenOrigin('https://example/base/api/public/v1')).toBe('https://example/base');
  });
});
