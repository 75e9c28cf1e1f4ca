import { beforeAll, describe, expect, it } from 'vitest';
import { MISBEHAVING } from './unnamed-misbehaving.ts';
import { RECEIVERS } from './unnamed-receivers.ts';
import { checkReceiver, createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { WELL_BEHAVED } from './unnamed-well-behaved.ts';

/**
 * Clients nobody named in the other suites, over real HTTP against `serve()`, each against a simulator
 * of its own: well-behaved but unusual ones must get no `fail` (and `pass` where they exercised a rule),
 * misbehaving ones must fail exactly their rule, with evidence; receivers are scored by the receiver
 * check. All run first (several at once, those judged by waits a few ms apart alone), then each test
 * reads its client's verdicts.
 */
const { judged, judgedTiming, judgedWell, outcome, skipReason } = createOutcomes();

beforeAll(async () => {
  // Alone first: their verdicts rest on waits a few ms apart, which clients beside them would blur;
  // after a warm-up, so the first calls of the process (loading, compiling) do not lengthen their waits.
  await judged('warm-up', async (t) => {
    const auth = t.sandbox.issueToken();
    for (const path of ['/providers', '/connectors', '/capabilities', '/connections'])
      await t.fetch(`${t.baseUrl}/api/public/v1${path}`, {
        headers: { authorization: `Bearer ${auth.token}`, 'x-service-tenant': auth.tenant },
      });
  });
  for (const c of MISBEHAVING.filter((x) => x.timing)) await judgedTiming(c);
  await pool(
    [
      ...WELL_BEHAVED.map((c) => () => judgedWell(c)),
      ...MISBEHAVING.filter((x) => !x.timing).map((c) => () => judged(c.does, c.run)),
      ...RECEIVERS.map((r) => () => judged(r.does, (t) => checkReceiver(t, r))),
    ],
    8,
  );
}, 60_000);

describe('unnamed well-behaved clients get no fail', () => {
  for (const c of WELL_BEHAVED)
    it(`a client that ${c.does}`, (ctx) => {
      const skip = skipReason(c.does);
      if (skip) return ctx.skip(skip);
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([]);
      for (const id of c.pass) expect(o.rules.find((r) => r.id === id)?.status, `${id}\n${shown(o)}`).toBe('pass');
    });
});

describe('unnamed misbehaving clients fail exactly their rule, with evidence', () => {
  for (const c of MISBEHAVING)
    it(`a client that ${c.does} fails ${c.fails.join(', ')}`, (ctx) => {
      const skip = skipReason(c.does);
      if (skip) return ctx.skip(skip);
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.fails].sort());
      for (const id of c.fails) expect(o.rules.find((r) => r.id === id)?.evidence.length).toBeGreaterThan(0);
    });
});

describe('unnamed webhook receivers', () => {
  for (const r of RECEIVERS)
    it(`a receiver that ${r.does} ${r.passes ? 'passes' : 'fails'} webhooks.receiver-verifies`, (ctx) => {
      const skip = skipReason(r.does);
      if (skip) return ctx.skip(skip);
      const o = outcome(r.does);
      const rule = o.rules.find((x) => x.id === 'webhooks.receiver-verifies');
      expect(rule?.status, JSON.stringify(o.receiverCheck?.cases, null, 1)).toBe(r.passes ? 'pass' : 'fail');
      if (!r.passes) expect(rule?.evidence.length).toBeGreaterThan(0);
    });
});
