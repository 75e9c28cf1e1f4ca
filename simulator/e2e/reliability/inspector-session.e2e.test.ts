import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';

// Issue 23 items 1 and 2: the inspector's cookie alone is worthless (another local port can obtain it);
// every API call needs the per-session secret the page holds; two simulators side by side keep their sessions.
const PREFIX = '/_sandbox/inspector';
let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  [a, b] = await Promise.all([serve({ port: 0 }), serve({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

interface Login {
  cookie: string;
  secret: string;
}
async function login(s: RunningServer, url = s.inspectorUrl!): Promise<Login> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  // The secret travels in the fragment of the redirect: never sent to a server, read by the page's script.
  const secret = new URL(res.headers.get('location')!, s.baseUrl).hash.replace(/^#session=/, '');
  expect(secret).toMatch(/^[\w-]{32,}$/);
  return { cookie, secret };
}
const api = (s: RunningServer, path: string, headers: Record<string, string>, init: RequestInit = {}) =>
  fetch(`${s.baseUrl}${PREFIX}/api${path}`, { ...init, headers: { ...headers, ...(init.headers as object) } });

describe('inspector session', () => {
  it('answers the cookie alone with 401 on reads and actions; the cookie with the page secret with 200', async () => {
    const { cookie, secret } = await login(a);
    const read = await api(a, '/overview', { cookie });
    expect(read.status).toBe(401);
    expect((await read.json()).error.code).toBe('unauthorized');
    const action = { method: 'POST', body: '{"seconds":1}', headers: { 'content-type': 'application/json' } };
    expect((await api(a, '/clock/advance', { cookie, 'x-ncs-inspector': '1' }, action)).status).toBe(401);
    expect((await api(a, '/reset', { cookie, 'x-ncs-inspector': '1' }, { method: 'POST' })).status).toBe(401);
    const live = await fetch(`${a.baseUrl}${PREFIX}/api/live`, { headers: { cookie } });
    expect(live.status).toBe(401);
    await live.body?.cancel();
    expect((await api(a, '/overview', { cookie, 'x-ncs-inspector-session': `${secret}x` })).status).toBe(401);
    const ok = await api(a, '/overview', { cookie, 'x-ncs-inspector-session': secret });
    expect(ok.status).toBe(200);
    const acted = await api(
      a,
      '/clock/advance',
      { cookie, 'x-ncs-inspector': '1', 'x-ncs-inspector-session': secret },
      action,
    );
    expect(acted.status).toBe(200);
    // The live stream (EventSource cannot set headers) takes the secret as a query parameter.
    const stream = await fetch(`${a.baseUrl}${PREFIX}/api/live?session=${secret}`, { headers: { cookie } });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
  });

  it('names its cookie per instance: two simulators side by side keep both sessions', async () => {
    const first = await login(a, a.sandbox.inspector!.newLoginUrl(a.baseUrl));
    const second = await login(b);
    const [nameA] = first.cookie.split('=');
    const [nameB] = second.cookie.split('=');
    expect(nameA).toMatch(/^ncs_inspector_/);
    expect(nameA).not.toBe(nameB);
    // A browser sends both cookies to both ports (cookies ignore the port): each server finds its own.
    const both = `${first.cookie}; ${second.cookie}`;
    expect((await api(a, '/overview', { cookie: both, 'x-ncs-inspector-session': first.secret })).status).toBe(200);
    expect((await api(b, '/overview', { cookie: both, 'x-ncs-inspector-session': second.secret })).status).toBe(200);
    expect((await api(b, '/overview', { cookie: both, 'x-ncs-inspector-session': first.secret })).status).toBe(401);
  });

  it('gives a fresh login link through the control plane with the admin token', async () => {
    const refused = await fetch(`${a.baseUrl}/_sandbox/inspector-login`, { method: 'POST' });
    expect(refused.status).toBe(401);
    const res = await fetch(`${a.baseUrl}/_sandbox/inspector-login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.sandbox.adminToken}` },
    });
    expect(res.status).toBe(200);
    const { url } = (await res.json()).data;
    expect(url).toMatch(new RegExp(`^${a.baseUrl}${PREFIX}/\\?token=ncs_login_`));
    const { cookie, secret } = await login(a, url);
    expect((await api(a, '/overview', { cookie, 'x-ncs-inspector-session': secret })).status).toBe(200);
  });
});
