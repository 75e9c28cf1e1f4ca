import { afterEach, describe, expect, it } from 'vitest';
import type { PlainRequest } from '../core/types.ts';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { INSPECTOR_PREFIX } from './paths.ts';

const BASE = 'http://127.0.0.1:4010';
let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());

// The page's session secret from the last login: sent along whenever a test sends the cookie, as the page does.
let secret = '';
function call(path: string, extra: Partial<PlainRequest> = {}) {
  if (extra.headers?.cookie && secret)
    extra = { ...extra, headers: { 'x-ncs-inspector-session': secret, ...extra.headers } };
  const [p, q] = path.split('?');
  return sandbox.core.handle({
    method: 'GET',
    path: p!,
    query: Object.fromEntries(new URLSearchParams(q ?? '')),
    headers: { host: '127.0.0.1:4010', ...extra.headers },
    origin: BASE,
    ...extra,
    ...(extra.headers ? { headers: { host: '127.0.0.1:4010', ...extra.headers } } : {}),
  });
}

async function login(): Promise<string> {
  const token = new URL(sandbox.inspector!.loginUrl(BASE)).searchParams.get('token')!;
  const res = await call(`${INSPECTOR_PREFIX}/?token=${token}`);
  expect(res.status).toBe(303);
  secret = res.headers.location!.split('#session=')[1]!;
  return res.headers['set-cookie']!.split(';')[0]!;
}

describe('inspector surface', () => {
  it('answers 401 to the page and its data without the session cookie', async () => {
    sandbox = createSandbox({ activationDelayMs: 0 });
    const page = await call(`${INSPECTOR_PREFIX}/`);
    expect(page.status).toBe(401);
    expect(page.body).toContain('Open the inspector URL printed by ncs serve');
    const api = await call(`${INSPECTOR_PREFIX}/api/journal`);
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body!).error).toMatchObject({ code: 'unauthorized', hint: expect.any(String) });
    const forged = await call(`${INSPECTOR_PREFIX}/api/journal`, { headers: { cookie: 'ncs_inspector=guess' } });
    expect(forged.status).toBe(401);
  });

  it('exchanges the one-time login token once for an HttpOnly SameSite=Strict cookie scoped to the inspector', async () => {
    sandbox = createSandbox();
    const url = sandbox.inspector!.loginUrl(BASE);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/_sandbox\/inspector\/\?token=ncs_login_/);
    expect((await call(`${INSPECTOR_PREFIX}/?token=wrong`)).status).toBe(401);
    const token = new URL(url).searchParams.get('token')!;
    const first = await call(`${INSPECTOR_PREFIX}/?token=${token}`);
    expect(first.headers.location).toMatch(new RegExp(`^${INSPECTOR_PREFIX}/#session=[\\w-]{43}$`));
    expect(first.headers['set-cookie']).toMatch(
      /^ncs_inspector_[0-9a-f]{12}=[\w-]{43}; Path=\/_sandbox\/inspector; HttpOnly; SameSite=Strict$/,
    );
    const again = await call(`${INSPECTOR_PREFIX}/?token=${token}`);
    expect(again.status).toBe(401);
    expect(again.body).not.toContain(token);
  });

  it('serves the page and its modules under a CSP without inline scripts or other origins', async () => {
    sandbox = createSandbox();
    const cookie = await login();
    const page = await call(`${INSPECTOR_PREFIX}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self';/);
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.body).toContain('<script type="module" src="app.js"></script>');
    expect(page.body).not.toMatch(/<script(?![^>]*src=)/);
    const app = await call(`${INSPECTOR_PREFIX}/app.js`, { headers: { cookie } });
    expect(app.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await call(`${INSPECTOR_PREFIX}/../sandbox.ts`, { headers: { cookie } })).status).toBe(404);
  });

  it('refuses host names other than loopback (DNS rebinding)', async () => {
    sandbox = createSandbox();
    const cookie = await login();
    const res = await call(`${INSPECTOR_PREFIX}/api/overview`, { headers: { cookie, host: 'evil.example:4010' } });
    expect(res.status).toBe(403);
    // A server started to listen elsewhere (ncs serve --host 0.0.0.0) lets other names in, still behind the login.
    sandbox.inspector!.setLoopbackOnly(false);
    expect(
      (await call(`${INSPECTOR_PREFIX}/api/overview`, { headers: { cookie, host: 'sandbox.lan:4010' } })).status,
    ).toBe(200);
    expect((await call(`${INSPECTOR_PREFIX}/api/overview`, { headers: { host: 'sandbox.lan:4010' } })).status).toBe(
      401,
    );
  });

  it('journals API calls with tenant and client while the API still refuses browser credentials', async () => {
    sandbox = createSandbox();
    const cookie = await login();
    const { token, tenant } = sandbox.issueToken();
    const auth = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant };
    expect((await call('/api/public/v1/providers', { headers: auth })).status).toBe(200);
    const browser = await call('/api/public/v1/providers', {
      headers: { ...auth, origin: 'http://127.0.0.1:4010', cookie },
    });
    expect(browser.status).toBe(403);
    const list = JSON.parse(
      (await call(`${INSPECTOR_PREFIX}/api/journal?tenant=${tenant}`, { headers: { cookie } })).body!,
    );
    expect(list.data.map((s: { status: number }) => s.status)).toEqual([403, 200]);
    expect(list.data[1]).toMatchObject({
      method: 'GET',
      path: '/api/public/v1/providers',
      tenant,
      clientId: 'harbour-backend',
    });
    const detail = JSON.parse(
      (await call(`${INSPECTOR_PREFIX}/api/journal/${list.data[1].seq}`, { headers: { cookie } })).body!,
    );
    expect(JSON.stringify(detail)).not.toContain(token);
    expect(detail.data.curl).toContain('"$NCS_TOKEN"');
  });

  it('runs control-plane transitions only from the page (custom header) and answers bad input with the envelope', async () => {
    sandbox = createSandbox();
    const cookie = await login();
    const post = (path: string, body: unknown, headers: Record<string, string> = { 'x-ncs-inspector': '1' }) =>
      call(`${INSPECTOR_PREFIX}/api${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: new TextEncoder().encode(JSON.stringify(body)),
      });
    expect((await post('/clock/advance', { seconds: 60 }, {})).status).toBe(403);
    const bad = await post('/clock/advance', { seconds: -1 });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body!).error).toMatchObject({
      code: 'invalid_request',
      detail: expect.stringContaining('seconds'),
    });
    const ok = await post('/clock/advance', { seconds: 60 });
    expect(JSON.parse(ok.body!).data.offsetMs).toBe(60_000);
    expect((await post('/deliveries/dlv_nope/redeliver', {})).status).toBe(404);
    expect((await post('/rate-limit', { limit: 5, windowSeconds: 10 })).status).toBe(200);
    expect(sandbox.state.rateLimits.settings()).toEqual({ limit: 5, windowSeconds: 10 });
    const tenantless = await call(`${INSPECTOR_PREFIX}/api/webhooks?tenant=nobody`, { headers: { cookie } });
    expect(JSON.parse(tenantless.body!).error.hint).toContain('harbour-kitchens');
  });

  it('answers every read view for a tenant: connections with history, webhooks, stream, audit, overview', async () => {
    sandbox = createSandbox({ activationDelayMs: 0 });
    const cookie = await login();
    const { tenant } = sandbox.issueToken();
    const created = await sandbox.state.connections.create(
      {
        tenant,
        connectorId: sandbox.state.fixtures.connectors[0]!.id,
        environment: 'sandbox',
        scopeLabel: 'Harbour',
        capabilities: [],
      },
      { actor: 'harbour-backend', requestId: 'req_test' },
    );
    await sandbox.control.setConnectionState(created.id, 'paused');
    const read = async (path: string) => {
      const res = await call(`${INSPECTOR_PREFIX}/api${path}`, { headers: { cookie } });
      expect(res.status, `${path}: ${res.body}`).toBe(200);
      return JSON.parse(res.body!).data;
    };
    const connections = await read(`/connections?tenant=${tenant}`);
    expect(connections[0].connection).toMatchObject({ id: created.id, state: 'paused' });
    expect(connections[0].history.map((h: { requestId: string }) => h.requestId)).toEqual(['req_test', 'control']);
    const audit = await read(`/audit?tenant=${tenant}`);
    expect(audit.proof.algorithm).toBe('sha256');
    expect(await read(`/webhooks?tenant=${tenant}`)).toEqual([]);
    expect((await read('/stream')).map((f: { feed: string }) => f.feed)).toContain('public');
    expect((await read('/overview')).tenants.length).toBeGreaterThan(1);
  });

  it('is absent when switched off', async () => {
    sandbox = createSandbox({ inspector: false });
    expect(sandbox.inspector).toBeUndefined();
    const res = await call(`${INSPECTOR_PREFIX}/`);
    expect(res.status).toBe(404);
  });
});
