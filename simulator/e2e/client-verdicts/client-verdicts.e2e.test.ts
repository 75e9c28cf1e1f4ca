import { describe, expect, it, type TestContext } from 'vitest';
import { httpTarget, mswTarget, type Target, type TargetFactory, testClock } from '../harness.ts';
import { startReceiver } from './receivers.ts';
import { CAREFUL_EXERCISES, CARELESS, carefulClient } from './scenarios.ts';

async function controlCall(t: Target, method: string, path: string, body?: unknown) {
  const res = await t.fetch(`${t.baseUrl}/_sandbox${path}`, {
    method,
    headers: {
      authorization: `Bearer ${t.sandbox.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as any };
}

const failed = (report: { rules: { id: string; status: string }[] }) =>
  report.rules.filter((r) => r.status === 'fail').map((r) => r.id);

function verdictSuite(name: string, factory: TargetFactory) {
  // Over HTTP the tests run side by side (each with its own server and clock: no verdict depends on
  // how busy the process is); MSW intercepts this process's fetch, one sandbox at a time.
  (name === 'HTTP' ? describe.concurrent : describe)(`client verdicts over ${name}`, () => {
    const open = async (ctx: TestContext) => {
      // The clients' sleeps advance this clock: every wait the rules judge is exactly the one chosen.
      const target = await factory({ activationDelayMs: 0, clock: testClock() });
      ctx.onTestFinished(() => target.close());
      return target;
    };

    it('the careful client fails no rule and passes every rule it exercised', async (ctx) => {
      const t = await open(ctx);
      await carefulClient(t);
      const { status, json } = await controlCall(t, 'GET', '/client-report');
      expect(status).toBe(200);
      const report = json.data;
      expect(failed(report), JSON.stringify(report.rules, null, 1)).toEqual([]);
      for (const id of CAREFUL_EXERCISES)
        expect(report.rules.find((r: { id: string }) => r.id === id)?.status, id).toBe('pass');
      expect(report.exitCode).toBe(0);
      // In process, the same verdicts.
      expect(t.sandbox.clientReport().rules.map((r) => [r.id, r.status])).toEqual(
        report.rules.map((r: { id: string; status: string }) => [r.id, r.status]),
      );
    });

    for (const careless of CARELESS)
      it(`a client that ${careless.does} fails exactly ${careless.rule}`, async (ctx) => {
        const t = await open(ctx);
        await careless.run(t);
        const report = t.sandbox.clientReport();
        expect(failed(report), JSON.stringify(report.rules, null, 1)).toEqual([careless.rule]);
        const rule = report.rules.find((r) => r.id === careless.rule)!;
        expect(rule.evidence.length).toBeGreaterThan(0);
        expect(report.exitCode).toBe(rule.severity === 'MUST' ? 1 : 0);
      });

    it('a rule with nothing to judge says not-observed', async (ctx) => {
      const t = await open(ctx);
      const report = t.sandbox.clientReport();
      expect(new Set(report.rules.map((r) => r.status))).toEqual(new Set(['not-observed']));
    });

    it('the receiver check scores a careless and a careful receiver', async (ctx) => {
      const t = await open(ctx);
      const careless = await startReceiver('careless');
      const carefulRx = await startReceiver('careful');
      try {
        const { token, tenant } = t.sandbox.issueToken();
        const register = async (url: string, key: string) => {
          const res = await t.fetch(`${t.baseUrl}/api/public/v1/webhooks`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'x-service-tenant': tenant,
              'idempotency-key': key,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ url, events: ['order.created'] }),
          });
          return ((await res.json()) as any).data;
        };
        const bad = await register(careless.url, 'register-careless-1');
        const good = await register(carefulRx.url, 'register-careful-1');
        carefulRx.setSecret(good.secret ?? good.signingSecret);
        const badCheck = await controlCall(t, 'POST', '/receiver-check', { webhookId: bad.id });
        expect(badCheck.status).toBe(200);
        expect(badCheck.json.data.pass).toBe(false);
        expect(
          badCheck.json.data.cases.filter((c: { pass: boolean }) => !c.pass).map((c: { name: string }) => c.name),
        ).toEqual([
          'tampered-body',
          'other-key',
          'empty-key',
          'timestamp-301s-old',
          'timestamp-301s-ahead',
          'timestamp-301s-old-replayed',
          'uppercase-hex',
          'signature-truncated',
          'signature-empty',
          'header-missing',
          'signature-reused-other-body',
        ]);
        const goodCheck = await t.sandbox.receiverCheck({ webhookId: good.id });
        expect(
          goodCheck.cases.filter((c) => !c.pass),
          JSON.stringify(goodCheck.cases),
        ).toEqual([]);
        expect(goodCheck.pass).toBe(true);
        expect(carefulRx.processed()).toBe(4); // valid (its duplicate acknowledged only), valid-spaced, two out of order
        const rule = t.sandbox.clientReport().rules.find((r) => r.id === 'webhooks.receiver-verifies')!;
        expect(rule.status).toBe('fail');
        expect(rule.evidence.map((e) => e.client)).toEqual(Array(10).fill(`receiver ${bad.id}`));
        expect((await controlCall(t, 'POST', '/receiver-check', { webhookId: 'wh_nope' })).status).toBe(404);
      } finally {
        await careless.close();
        await carefulRx.close();
      }
    });
  });
}

verdictSuite('HTTP', httpTarget);
verdictSuite('MSW', mswTarget);
