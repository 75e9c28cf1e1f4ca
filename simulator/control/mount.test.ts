import { describe, expect, it } from 'vitest';
import { createSandbox } from '../app/sandbox.ts';

const call = async (
  sandbox: ReturnType<typeof createSandbox>,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
) => {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const body = opts.body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(opts.body));
  const res = await sandbox.core.handle({ method, path, query: {}, headers, ...(body ? { body } : {}) });
  return { status: res.status, headers: res.headers, json: JSON.parse(res.body ?? 'null') };
};

describe('control plane surface (core router + middleware factories)', () => {
  const sandbox = createSandbox({ adminToken: 'ncs_admin_test' });
  const admin = { token: 'ncs_admin_test' };

  it('answers an unknown path with its own 404 detail and hint', async () => {
    const res = await call(sandbox, 'GET', '/_sandbox/nope', admin);
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({
      code: 'not_found',
      detail: 'No such control-plane route.',
      hint: 'GET /_sandbox/openapi.json describes the control plane.',
    });
  });

  it('answers a wrong method with 404, the methods the path has and an Allow header', async () => {
    const res = await call(sandbox, 'PUT', '/_sandbox/faults', admin);
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBe('GET, POST, DELETE');
    expect(res.json.error.detail).toBe('This control-plane path answers GET, POST, DELETE.');
  });

  it('routes before it authenticates, and serves its document without a token', async () => {
    expect((await call(sandbox, 'GET', '/_sandbox/nope')).status).toBe(404);
    expect((await call(sandbox, 'GET', '/_sandbox')).status).toBe(401);
    expect((await call(sandbox, 'GET', '/_sandbox/openapi.json')).status).toBe(200);
  });

  it('fills schema defaults (a fault without count is armed once) and refuses bodies outside the schema', async () => {
    const armed = await call(sandbox, 'POST', '/_sandbox/faults', { ...admin, body: { kind: 'internal' } });
    expect(armed.status).toBe(200);
    expect(armed.json.data).toMatchObject({ kind: 'internal', remaining: 1 });
    const bad = await call(sandbox, 'POST', '/_sandbox/faults', { ...admin, body: { kind: 'internal', extra: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');
    await call(sandbox, 'DELETE', '/_sandbox/faults', admin);
  });

  it('types path parameters and bodies for its handlers: unknown connection -> 404 from the operation', async () => {
    const res = await call(sandbox, 'POST', '/_sandbox/connections/con_nope/state', {
      ...admin,
      body: { state: 'paused' },
    });
    expect(res.status).toBe(404);
    expect(res.json.error.detail).toBe('No connection con_nope.');
  });
});
