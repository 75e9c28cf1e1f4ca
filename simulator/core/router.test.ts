import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../contract/openapi.ts';
import { ApiError } from './api-error.ts';
import { createRouter } from './router.ts';

describe('router', () => {
  const router = createRouter(buildOpenApiDocument());
  beforeAll(() => router.ready);

  it('answers a repeated path from its match cache with the same route and params', () => {
    const first = router.match('GET', '/api/public/v1/providers');
    expect(router.match('GET', '/api/public/v1/providers')).toBe(first);
    expect(first.route.id).toBe('listProviders');
    const one = router.match('GET', '/api/public/v1/connections/con_a');
    expect(one.params).toEqual({ connectionId: 'con_a' });
    expect(router.match('GET', '/api/public/v1/connections/con_b').params).toEqual({ connectionId: 'con_b' });
  });

  it('still refuses unknown paths and wrong methods after matching them once', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => router.match('GET', '/api/public/v1/nothing')).toThrow(ApiError);
      try {
        router.match('DELETE', '/api/public/v1/providers');
        expect.unreachable();
      } catch (err) {
        expect((err as ApiError).headers).toEqual({ allow: 'GET' });
      }
    }
  });

  it('stays correct past the bound of its cache', () => {
    for (let i = 0; i < 2500; i++)
      expect(router.match('GET', `/api/public/v1/connections/con_${i}`).params.connectionId).toBe(`con_${i}`);
    expect(router.match('GET', '/api/public/v1/connections/con_7').params.connectionId).toBe('con_7');
  });

  it('builds a document given as a function only when ready is first read, and only once', async () => {
    let built = 0;
    const lazy = createRouter(() => {
      built++;
      return buildOpenApiDocument();
    });
    expect(built).toBe(0);
    expect(() => lazy.match('GET', '/api/public/v1/providers')).toThrow(/before its ready promise/);
    await Promise.all([lazy.ready, lazy.ready]);
    expect(built).toBe(1);
    expect(lazy.match('GET', '/api/public/v1/providers').route.id).toBe('listProviders');
  });
});
