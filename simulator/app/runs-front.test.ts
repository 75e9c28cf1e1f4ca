import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox.ts';

let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  sandbox.core.handle({
    method: 'POST',
    path: '/_sandbox/runs',
    query: {},
    headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json', ...headers },
    body: new TextEncoder().encode(body),
  });
const errorOf = async (res: Promise<{ status: number; body?: unknown }>) => {
  const r = await res;
  return { status: r.status, error: (JSON.parse(String(r.body)) as { error: { detail: string; hint: string } }).error };
};

describe('POST /_sandbox/runs: the pipeline’s checks, though answered in front of it (attacks round 5)', () => {
  it('refuses a key given twice, a body that is not JSON by its type, and an unknown Service-Version', async () => {
    sandbox = createSandbox({ inspector: false });
    const twice = await errorOf(post('{"ttlSeconds":1,"ttlSeconds":604800}'));
    expect(twice.status).toBe(400);
    expect(twice.error.detail).toMatch(/"ttlSeconds" twice/);
    const text = await errorOf(post('{"ttlSeconds":5}', { 'content-type': 'text/plain' }));
    expect(text.status).toBe(400);
    expect(text.error.hint).toMatch(/Content-Type: application\/json/);
    const version = await errorOf(post('{"ttlSeconds":5}', { 'service-version': '1999-01-01' }));
    expect(version.status).toBe(400);
    expect(version.error.hint).toMatch(/2026-07-01/);
    expect((await post('{"ttlSeconds":5}', { 'service-version': '2026-06-12' })).status).toBe(200);
    expect((await post('')).status).toBe(200); // no body: the default TTL
  });

  it('refuses a body the transport dropped for its size instead of taking it for none (a default 1 h run)', async () => {
    sandbox = createSandbox({ inspector: false });
    const res = await sandbox.core.handle({
      method: 'POST',
      path: '/_sandbox/runs',
      query: {},
      headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' },
      bodyTooLarge: true,
    });
    expect(res.status).toBe(400);
    expect(String(res.body)).toMatch(/larger than this deployment accepts/);
    expect(sandbox.runs?.count()).toBe(0);
  });

  it('answers another method with 404, Allow: POST and a hint; HEAD without a body', async () => {
    sandbox = createSandbox({ inspector: false });
    for (const method of ['GET', 'PUT', 'OPTIONS']) {
      const res = await sandbox.core.handle({ method, path: '/_sandbox/runs', query: {}, headers: {} });
      expect(res.status, method).toBe(404);
      expect(res.headers.allow).toBe('POST');
      expect(String(res.body)).toMatch(/answers POST/);
    }
    const head = await sandbox.core.handle({ method: 'HEAD', path: '/_sandbox/runs', query: {}, headers: {} });
    expect(head.status).toBe(404);
    expect(head.body).toBeUndefined();
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });

  it('holds the cap under concurrent creations: the places promised count before the first await', async () => {
    sandbox = createSandbox({ inspector: false, runs: { max: 3 } });
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => post('{"ttlSeconds":5}')))).map(
      (r) => r.status,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(sandbox.runs?.count()).toBe(3);
  });
});
