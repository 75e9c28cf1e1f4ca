import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../simulator/app/serve.ts';
import { ncs } from '../../simulator/e2e/cli-process.ts';

// Issue 23 item 2: a person who lost the inspector page gets a new login link without a restart.
let s: RunningServer;
beforeAll(async () => {
  s = await serve({ port: 0 });
});
afterAll(() => s?.close());

describe('ncs inspector', () => {
  it('prints a fresh login link that works once, with the admin token from the environment', async () => {
    await fetch(s.inspectorUrl!, { redirect: 'manual' }); // the banner's link is spent
    const r = await ncs(['inspector'], { NCS_BASE_URL: s.baseUrl, NCS_ADMIN_TOKEN: s.sandbox.adminToken });
    expect(r.status, r.stderr).toBe(0);
    const url = r.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_sandbox\/inspector\/\?token=ncs_login_[\w-]+$/);
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(401);
  });

  it('refuses without the admin token, in one line, exit 2', async () => {
    const r = await ncs(['inspector'], { NCS_BASE_URL: s.baseUrl });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
