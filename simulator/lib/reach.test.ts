import { describe, expect, it } from 'vitest';
import { cannotReach, reachingFetch } from './reach.ts';

describe('reachingFetch', () => {
  it('names the address and the innermost reason of a failed connection', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    }) as typeof fetch;
    await expect(reachingFetch(failing, 'http://127.0.0.1:1')('http://127.0.0.1:1/x')).rejects.toThrow(
      'cannot reach http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('passes answers through untouched, failures of the server included', async () => {
    const answering = (async () => new Response('no', { status: 503 })) as typeof fetch;
    expect((await reachingFetch(answering, 'http://x')('http://x/')).status).toBe(503);
    expect(cannotReach('http://x', 'down')).toBe('cannot reach http://x: down');
  });
});
