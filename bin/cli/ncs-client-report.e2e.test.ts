import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_VERSION } from '../../simulator/contract/versions.ts';
import { ncs } from '../../simulator/e2e/cli-process.ts';
import { httpTarget, sleepOn, type Target, testClock } from '../../simulator/e2e/harness.ts';

describe('ncs client-report and ncs sandbox receiver-check', () => {
  let t: Target;
  let env: Record<string, string>;
  beforeAll(async () => {
    // The test's own waits pass on the sandbox clock (sleepOn), which the client rules time calls by.
    t = await httpTarget({ clock: testClock() });
    env = { NCS_BASE_URL: t.baseUrl, NCS_ADMIN_TOKEN: t.sandbox.adminToken };
  });
  afterAll(() => t.close());

  it('exits 0 while no MUST rule fails, 1 once one does, with console, JSON, JUnit and HTML reports', async () => {
    const { token, tenant } = t.sandbox.issueToken();
    const headers = {
      authorization: `Bearer ${token}`,
      'x-service-tenant': tenant,
      'service-version': CURRENT_VERSION,
    };
    const fault = await ncs(['sandbox', 'fault', 'internal', '--route', 'listProviders', '--tenant', tenant], env);
    expect(fault.status, fault.stderr).toBe(0);
    expect(JSON.parse(fault.stdout)).toMatchObject({ kind: 'internal', tenant, remaining: 1 });
    expect((await t.fetch(`${t.baseUrl}/api/public/v1/providers`, { headers })).status).toBe(500);
    await sleepOn(t, 600); // a retry after a wait: judged, and nothing to fault
    expect((await t.fetch(`${t.baseUrl}/api/public/v1/providers`, { headers })).status).toBe(200);

    const clean = await ncs(['client-report'], { ...env, NO_COLOR: '1' });
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/✓ retry\.only-after-failure/);
    expect(clean.stdout).toMatch(/- retry\.growing-waits skipped: not observed/);

    // Credentials from a browser page: a MUST rule fails.
    await t.fetch(`${t.baseUrl}/api/public/v1/providers`, { headers: { ...headers, origin: 'https://app.example' } });
    const dir = mkdtempSync(join(tmpdir(), 'ncs-client-report-'));
    const failing = await ncs(['client-report', '--json', '--junit', '--html', '--output', dir], {
      ...env,
      NO_COLOR: '1',
    });
    expect(failing.status, failing.stderr).toBe(1);
    expect(failing.stdout).toMatch(/✗ auth\.no-browser-credentials MUST/);
    const junit = readFileSync(join(dir, 'client-report-junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase name="auth.no-browser-credentials"[^>]*>.*<failure[^>]*type="MUST"/s);
    const json = JSON.parse(readFileSync(join(dir, 'client-report.json'), 'utf8'));
    expect(json.rules.find((r: { id: string }) => r.id === 'auth.no-browser-credentials').status).toBe('fail');
    expect(readFileSync(join(dir, 'client-report.html'), 'utf8')).toContain('auth.no-browser-credentials');
    // One client only: another client id has nothing observed, so nothing fails.
    expect((await ncs(['client-report', '--client', 'someone-else'], env)).status).toBe(0);
  });

  it('ncs sandbox receiver-check scores a receiver that accepts everything: exit 1, the failed cases printed', async () => {
    const server = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { token, tenant } = t.sandbox.issueToken();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const registered = await t.fetch(`${t.baseUrl}/api/public/v1/webhooks`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-service-tenant': tenant,
          'idempotency-key': 'cli-receiver-check-1',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url, events: ['order.created'] }),
      });
      const { id } = ((await registered.json()) as { data: { id: string } }).data;
      const checked = await ncs(['sandbox', 'receiver-check', id, '--timeout', '3000'], env);
      expect(checked.status, checked.stderr).toBe(1);
      const result = JSON.parse(checked.stdout);
      expect(result).toMatchObject({ receiverId: id, pass: false, timeoutMs: 3000 });
      expect(result.cases.find((c: { name: string }) => c.name === 'tampered-body')).toMatchObject({
        status: 204,
        pass: false,
      });
    } finally {
      server.close();
    }
  });

  it('exits 2 on a usage error or an unknown receiver', async () => {
    // Three independent processes, started together (they gain when a core is free).
    const [usage, noToken, missing] = await Promise.all([
      ncs(['client-report', '--reporter', 'pdf'], env),
      ncs(['client-report'], { NCS_BASE_URL: t.baseUrl }),
      ncs(['sandbox', 'receiver-check', 'wh_missing'], env),
    ]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/unknown reporter pdf/);
    expect(noToken.status).toBe(2);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/not_found/);
  });
});
