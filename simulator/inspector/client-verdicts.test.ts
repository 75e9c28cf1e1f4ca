import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import type { PlainRequest } from '../core/types.ts';
import { INSPECTOR_PREFIX } from './paths.ts';

const BASE = 'http://127.0.0.1:4010';
let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());

const call = (path: string, extra: Partial<PlainRequest> = {}) => {
  const [p, q] = path.split('?');
  return sandbox.core.handle({
    method: 'GET',
    path: p!,
    query: Object.fromEntries(new URLSearchParams(q ?? '')),
    origin: BASE,
    ...extra,
    headers: {
      host: '127.0.0.1:4010',
      ...(extra.headers?.cookie ? { 'x-ncs-inspector-session': secret } : {}),
      ...extra.headers,
    },
  });
};

/** The session cookie and, as the page sends it on every API call, the session secret from the login redirect. */
async function login(): Promise<string> {
  const token = new URL(sandbox.inspector!.loginUrl(BASE)).searchParams.get('token')!;
  const res = await call(`${INSPECTOR_PREFIX}/?token=${token}`);
  secret = res.headers.location!.split('#session=')[1]!;
  return res.headers['set-cookie']!.split(';')[0]!;
}
let secret = '';

describe('inspector: client verdicts and the new faults', () => {
  it('shows the client report, lists scoped faults, and serves the client-verdicts view', async () => {
    sandbox = createSandbox({ activationDelayMs: 0 });
    const cookie = await login();
    const { token, tenant } = sandbox.issueToken();
    const empty = JSON.parse((await call(`${INSPECTOR_PREFIX}/api/client-report`, { headers: { cookie } })).body!);
    expect(empty.data.rules.every((r: { status: string }) => r.status === 'not-observed')).toBe(true);

    await call('/api/public/v1/providers', {
      headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, origin: 'https://app.example' },
    });
    const report = JSON.parse((await call(`${INSPECTOR_PREFIX}/api/client-report`, { headers: { cookie } })).body!);
    const rule = report.data.rules.find((r: { id: string }) => r.id === 'auth.no-browser-credentials');
    expect(rule).toMatchObject({ severity: 'MUST', status: 'fail' });
    expect(rule.evidence[0].note).toContain('https://app.example');

    const armed = await call(`${INSPECTOR_PREFIX}/api/faults`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-ncs-inspector': '1' },
      body: new TextEncoder().encode(
        JSON.stringify({ kind: 'commit_then_fail', route: 'createConnection', tenant, failWith: 'drop', count: 2 }),
      ),
    });
    expect(armed.status).toBe(200);
    const overview = JSON.parse((await call(`${INSPECTOR_PREFIX}/api/overview`, { headers: { cookie } })).body!);
    expect(overview.data.faults).toEqual([
      expect.objectContaining({
        kind: 'commit_then_fail',
        route: 'createConnection',
        tenant,
        failWith: 'drop',
        remaining: 2,
      }),
    ]);
    const view = await call(`${INSPECTOR_PREFIX}/client-view.js`, { headers: { cookie } });
    expect(view.status).toBe(200);
    expect(view.body).toContain('showClientVerdicts');
    const page = await call(`${INSPECTOR_PREFIX}/`, { headers: { cookie } });
    expect(page.body).toContain('data-view="clients"');
  });
});
