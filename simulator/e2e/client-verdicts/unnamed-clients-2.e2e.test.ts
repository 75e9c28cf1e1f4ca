import { beforeAll, describe, expect, it } from 'vitest';
import { checkReceiver, createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { MISBEHAVING_2 } from './unnamed2-misbehaving.ts';
import { RECEIVERS_2 } from './unnamed2-receivers.ts';
import { WELL_BEHAVED_2 } from './unnamed2-well-behaved.ts';

/**
 * The second round of clients nobody named elsewhere (none of the kinds of unnamed-clients.e2e.test.ts),
 * over real HTTP against `serve()`, each against a simulator of its own: well-behaved but unusual ones
 * must get no `fail` (and `pass` where they exercised a rule), misbehaving ones must fail exactly their
 * rule, with evidence; receivers are scored by the receiver check. Long waits are the sandbox clock
 * advanced, never slept; clients judged by waits a few ms apart run alone after a warm-up.
 */
const { judged, judgedTiming, judgedWell, outcome, skipReason } = createOutcomes();

beforeAll(async () => {
  await judged('warm-up', async (t) => {
    const auth = t.sandbox.issueToken();
    for (const path of ['/providers', '/connectors', '/capabilities', '/connections'])
      await t.fetch(`${t.baseUrl}/api/public/v1${path}`, {
        headers: { authorization: `Bearer ${auth.token}`, 'x-service-tenant': auth.tenant },
      });
  });
  for (const c of MISBEHAVING_2.filter((x) => x.timing)) await judgedTiming(c);
  await pool(
    [
      ...WELL_BEHAVED_2.map((c) => () => judgedWell(c)),
      ...MISBEHAVING_2.filter((x) => !x.timing).map((c) => () => judged(c.does, c.run, c.options)),
      ...RECEIVERS_2.map((r) => () => judged(r.does, (t) => checkReceiver(t, r))),
    ],
    8,
  );
}, 60_000);

describe('unnamed well-behaved clients, round 2, get no fail', () => {
  for (const c of WELL_BEHAVED_2)
    it(`a client that ${c.does}`, (ctx) => {
      const skip = skipReason(c.does);
      if (skip) return ctx.skip(skip);
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([]);
      for (const id of c.pass) expect(o.rules.find((r) => r.id === id)?.status, `${id}\n${shown(o)}`).toBe('pass');
    });
});

describe('unnamed misbehaving clients, round 2, fail exactly their rule, with evidence', () => {
  for (const c of MISBEHAVING_2)
    it(`a client that ${c.does} fails ${c.fails.join(', ')}`, (ctx) => {
      const skip = skipReason(c.does);
      if (skip) return ctx.skip(skip);
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.fails].sort());
      for (const id of c.fails) expect(o.rules.find((r) => r.id === id)?.evidence.length).toBeGreaterThan(0);
    });
});

describe('unnamed webhook receivers, round 2', () => {
  for (const r of RECEIVERS_2)
    it(`a receiver that ${r.does} ${r.passes ? 'passes' : 'fails'} webhooks.receiver-verifies`, (ctx) => {
      const skip = skipReason(r.does);
      if (skip) return ctx.skip(skip);
      const o = outcome(r.does);
      const rule = o.rules.find((x) => x.id === 'webhooks.receiver-verifies');
      expect(rule?.status, JSON.stringify(o.receiverCheck?.cases, null, 1)).toBe(r.passes ? 'pass' : 'fail');
      if (!r.passes) expect(rule?.evidence.length).toBeGreaterThan(0);
    });
});
