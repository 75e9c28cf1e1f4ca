// Round-8 attacks on the client verdicts (README "Client verdicts"): traffic shaped to make the rules
// blame another client, to hide a client's own misbehaviour, and a flood of forged clients. Each test
// uses its own fixtures clients so one test's calls do not decide another's verdict. Loopback only.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../app/serve.ts';
import { call, key } from './attacks-round7-helpers.ts';
import { admin, useServer } from './attacks-round7-server.ts';
import { CLIENTS, ccToken } from './attacks-round8-helpers.ts';

let s: RunningServer;
useServer((srv) => {
  s = srv;
});
const BODY = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'R8 Verdict',
  capabilities: ['menu.read'],
};
type Rule = { id: string; status: string; evidence: { client: string; tenant: string }[] };
const report = async (q: string) => {
  const res = await admin(`/_sandbox/client-report${q}`);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { json: JSON.parse(text).data as { rules: Rule[] }, size: text.length, text };
};
const rule = (r: { rules: Rule[] }, id: string) => r.rules.find((x) => x.id === id);
const post = (t: string, tenant: string, body: unknown, k?: string) =>
  call(s.baseUrl, 'POST', '/api/public/v1/connections', t, {
    tenant,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { ...(k ? { 'idempotency-key': k } : {}), 'service-version': '2026-07-01' },
  });

describe('round 8: client verdicts under hostile traffic', () => {
  it("another client of the tenant reusing a victim's key with other content does not fail the victim", async () => {
    const victim = await ccToken(s.baseUrl, CLIENTS.harbour);
    const attacker = await ccToken(s.baseUrl, CLIENTS.pilot);
    const k = key();
    expect((await post(victim, 'harbour-kitchens', BODY, k)).status).toBe(200);
    for (let i = 0; i < 3; i++) await post(attacker, 'harbour-kitchens', { ...BODY, scopeLabel: `Evil ${i}` }, k);
    const r = await report(`?client=${CLIENTS.harbour.id}`);
    for (const id of ['idempotency.one-key-one-content', 'retry.only-after-failure'])
      expect(rule(r.json, id)?.status, `${id}: ${JSON.stringify(rule(r.json, id))}`).not.toBe('fail');
    const mine = await report(`?client=${CLIENTS.pilot.id}`);
    expect(rule(mine.json, 'idempotency.one-key-one-content')?.status).toBe('fail');
  });

  it('a 400 repeated unchanged but with keys reordered and whitespace added is still a repeat', async () => {
    const t = await ccToken(s.baseUrl, CLIENTS.alpine);
    const k = key();
    const bad = { connectorId: 'x', environment: 'sandbox', scopeLabel: 'R8', capabilities: ['menu.read'] };
    const spellings = [
      JSON.stringify(bad),
      JSON.stringify({
        capabilities: bad.capabilities,
        scopeLabel: bad.scopeLabel,
        environment: bad.environment,
        connectorId: 'x',
      }),
      JSON.stringify(bad, null, 4),
    ];
    for (const b of spellings) expect((await post(t, 'alpine-bistro', b, k)).status).toBe(400);
    const r = await report(`?client=${CLIENTS.alpine.id}`);
    expect(
      rule(r.json, 'retry.only-after-failure')?.status,
      JSON.stringify(rule(r.json, 'retry.only-after-failure')),
    ).toBe('fail');
  });

  it("a two-tenant client misbehaving in one tenant is not reported in the other tenant's filter", async () => {
    const t = await ccToken(s.baseUrl, CLIENTS.integrator);
    const k = key();
    await post(t, 'alpine-bistro', BODY, k);
    await post(t, 'alpine-bistro', { ...BODY, scopeLabel: 'Other' }, k);
    const r = await report(`?client=${CLIENTS.integrator.id}&tenant=harbour-kitchens`);
    const ev = r.json.rules.flatMap((x) => x.evidence ?? []);
    expect(ev.every((e) => e.tenant === 'harbour-kitchens')).toBe(true);
    expect(rule(r.json, 'idempotency.one-key-one-content')?.status).not.toBe('fail');
  });

  it('3,000 calls with forged tokens of made-up clients: none becomes a judged client, the report stays small', async () => {
    const before = await report('');
    for (let i = 0; i < 30; i++)
      await Promise.all(
        Array.from({ length: 100 }, () =>
          call(s.baseUrl, 'GET', '/api/public/v1/providers', `ncs_at_${randomBytes(16).toString('hex')}`, {
            tenant: `t-${randomBytes(4).toString('hex')}`,
          }).then((r) => r.text()),
        ),
      );
    const after = await report('');
    expect(after.size).toBeLessThan(before.size + 5_000);
    expect(after.text).not.toContain('ncs_at_');
  }, 60_000);

  it('a client hiding a retry storm behind a fresh key each time (hedging) is still caught', async () => {
    const t = await ccToken(s.baseUrl, CLIENTS.harbour);
    const armed = await admin('/_sandbox/faults', 'POST', {
      kind: 'internal',
      route: '/api/public/v1/connections',
      method: 'POST',
      count: 3,
    });
    expect(armed.status, await armed.text()).toBe(200);
    const body = { ...BODY, scopeLabel: 'Hedge' };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(t, 'harbour-kitchens', body, key())).status);
    expect(statuses).toEqual([500, 500, 500]);
    const r = await report(`?client=${CLIENTS.harbour.id}`);
    const same = rule(r.json, 'retry.same-key-and-content');
    expect(same?.status, JSON.stringify(same)).toBe('fail');
  });

  it('the report filtered by a client id of 10 KB or with markup: 400 or an empty filter, never echoed whole', async () => {
    for (const client of ['<img src=x onerror=alert(1)>', 'c'.repeat(10_000)]) {
      const res = await admin(`/_sandbox/client-report?client=${encodeURIComponent(client)}`);
      const text = await res.text();
      expect([200, 400]).toContain(res.status);
      expect(text).not.toContain('c'.repeat(500));
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
