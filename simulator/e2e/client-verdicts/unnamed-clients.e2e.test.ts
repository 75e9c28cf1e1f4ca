import { describe, expect, it } from 'vitest';
import { httpTarget, type Target } from '../harness.ts';
import { MISBEHAVING } from './unnamed-misbehaving.ts';
import { RECEIVERS, startUnnamedReceiver } from './unnamed-receivers.ts';
import { WELL_BEHAVED } from './unnamed-well-behaved.ts';

/**
 * Clients nobody named in the other suites, over real HTTP against `serve()`: well-behaved but unusual
 * ones must get no `fail` (and `pass` where they exercised a rule), misbehaving ones must fail exactly
 * their rule, with evidence. Each runs against its own simulator, several at once.
 */
const failed = (t: Target) =>
  t.sandbox
    .clientReport()
    .rules.filter((r) => r.status === 'fail')
    .map((r) => r.id)
    .sort();

const report = (t: Target) =>
  JSON.stringify(
    t.sandbox.clientReport().rules.map(({ id, status, summary, evidence }) => ({ id, status, summary, evidence })),
    null,
    1,
  );

async function withTarget(fn: (t: Target) => Promise<void>) {
  const t = await httpTarget({ activationDelayMs: 0 });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

describe.concurrent('unnamed well-behaved clients get no fail', () => {
  for (const c of WELL_BEHAVED)
    it(`a client that ${c.does}`, () =>
      withTarget(async (t) => {
        await c.run(t);
        expect(failed(t), report(t)).toEqual([]);
        const rules = t.sandbox.clientReport().rules;
        for (const id of c.pass) expect(rules.find((r) => r.id === id)?.status, `${id}\n${report(t)}`).toBe('pass');
      }));
});

function misbehaving(c: (typeof MISBEHAVING)[number]) {
  it(`a client that ${c.does} fails ${c.fails.join(', ')}`, () =>
    withTarget(async (t) => {
      await c.run(t);
      expect(failed(t), report(t)).toEqual([...c.fails].sort());
      for (const id of c.fails)
        expect(t.sandbox.clientReport().rules.find((r) => r.id === id)?.evidence.length).toBeGreaterThan(0);
    }));
}

// First and one at a time: their verdicts rest on waits a few ms apart, which clients running beside
// them in this process would blur.
describe('unnamed misbehaving clients judged by small differences of waits', () => {
  for (const c of MISBEHAVING.filter((x) => x.timing)) misbehaving(c);
});

describe.concurrent('unnamed misbehaving clients fail exactly their rule, with evidence', () => {
  for (const c of MISBEHAVING.filter((x) => !x.timing)) misbehaving(c);
});

describe.concurrent('unnamed webhook receivers', () => {
  for (const r of RECEIVERS)
    it(`a receiver that ${r.does} ${r.passes ? 'passes' : 'fails'} webhooks.receiver-verifies`, () =>
      withTarget(async (t) => {
        const rx = await startUnnamedReceiver(r.verify);
        try {
          const { token, tenant } = t.sandbox.issueToken();
          const res = await t.fetch(`${t.baseUrl}/api/public/v1/webhooks`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'x-service-tenant': tenant,
              'service-version': '2026-07-01',
              'idempotency-key': 'unnamed-receiver-1',
              'content-type': 'application/json',
            },
            body: JSON.stringify({ url: rx.url, events: ['order.created'] }),
          });
          const hook = ((await res.json()) as any).data;
          rx.setSecret(hook.secret ?? hook.signingSecret);
          const check = await t.sandbox.receiverCheck({ webhookId: hook.id });
          const rule = t.sandbox.clientReport().rules.find((x) => x.id === 'webhooks.receiver-verifies');
          expect(rule?.status, JSON.stringify(check.cases, null, 1)).toBe(r.passes ? 'pass' : 'fail');
          if (!r.passes) expect(rule?.evidence.length).toBeGreaterThan(0);
        } finally {
          await rx.close();
        }
      }));
});
