import { describe, expect, it } from 'vitest';
import type { FetchLike, RequestInitLike, ResponseLike } from './client-types.ts';
import { fetchWithoutLeaks } from './redirects.ts';

/** A fake fetch: `/a` on origin A redirects with `status` to `to`; everything else answers 200. */
function fake(status: number, to: string) {
  const calls: { url: string; init: RequestInitLike }[] = [];
  const doFetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const headers = new Headers(url.endsWith('/a') ? { location: to } : {});
    return { status: url.endsWith('/a') ? status : 200, headers, text: async () => '', body: null } as ResponseLike;
  };
  return { calls, doFetch };
}

describe('fetchWithoutLeaks', () => {
  for (const status of [307, 308]) {
    it(`does not re-post a form (client_secret) to another origin on ${status}`, async () => {
      const { calls, doFetch } = fake(status, 'http://127.0.0.1:2/token');
      const refused: string[] = [];
      const res = await fetchWithoutLeaks(
        doFetch,
        'http://127.0.0.1:1/a',
        { method: 'POST', headers: {}, body: 'client_secret=s' },
        (o) => refused.push(o),
      );
      expect(res.status).toBe(status);
      expect(calls.map((c) => c.url)).toEqual(['http://127.0.0.1:1/a']);
      expect(calls[0]?.init.redirect).toBe('manual');
      expect(refused).toEqual(['http://127.0.0.1:2']);
    });
  }

  it('does not carry an Authorization header to another origin', async () => {
    const { calls, doFetch } = fake(301, 'http://127.0.0.1:2/x');
    const res = await fetchWithoutLeaks(doFetch, 'http://127.0.0.1:1/a', {
      method: 'GET',
      headers: { Authorization: 'Bearer t' },
    });
    expect(res.status).toBe(301);
    expect(calls).toHaveLength(1);
  });

  it('follows a same-origin 307 keeping the body, a 303 as a body-less GET', async () => {
    const keep = fake(307, '/b');
    const res = await fetchWithoutLeaks(keep.doFetch, 'http://127.0.0.1:1/a', {
      method: 'POST',
      headers: {},
      body: 'x',
    });
    expect(res.status).toBe(200);
    expect(keep.calls[1]).toMatchObject({ url: 'http://127.0.0.1:1/b', init: { method: 'POST', body: 'x' } });
    const get = fake(303, '/b');
    await fetchWithoutLeaks(get.doFetch, 'http://127.0.0.1:1/a', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(get.calls[1]?.init).toMatchObject({ method: 'GET', headers: {} });
    expect(get.calls[1]?.init.body).toBeUndefined();
  });
});
