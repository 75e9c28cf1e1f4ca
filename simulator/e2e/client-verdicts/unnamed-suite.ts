import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import type { Target } from '../harness.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import type { ReceiverKind } from './unnamed-receivers.ts';
import { checkReceiver, createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import type { UnnamedClient } from './unnamed-kit.ts';

type WithOptions<T> = T & { options?: SandboxOptions };

/**
 * Registers a suite of clients nobody named elsewhere, over real HTTP against `serve()`, each against a
 * simulator of its own: well-behaved but unusual ones must get no `fail` (and `pass` where they exercised
 * a rule), misbehaving ones must fail exactly their rule, with evidence; receivers are scored by the
 * receiver check. All run first (several at once; those judged by waits a few ms apart alone, after a
 * warm-up, so the first calls of the process do not lengthen their waits), then each test reads its
 * client's verdicts.
 * @example unnamedSuite('round 2', { wellBehaved: WELL_BEHAVED_2, misbehaving: MISBEHAVING_2, receivers: RECEIVERS_2 });
 */
export function unnamedSuite(
  round: string,
  clients: {
    wellBehaved: WithOptions<UnnamedClient>[];
    misbehaving: WithOptions<FaultyClient>[];
    receivers: (ReceiverKind & { delayMs?: number; timeoutMs?: number })[];
  },
): void {
  const { judged, judgedTiming, judgedWell, outcome, skipReason } = createOutcomes();
  const { wellBehaved, misbehaving, receivers } = clients;
  const label = round ? `, ${round},` : '';

  beforeAll(async () => {
    await judged('warm-up', async (t: Target) => {
      const auth = t.sandbox.issueToken();
      for (const path of ['/providers', '/connectors', '/capabilities', '/connections'])
        await t.fetch(`${t.baseUrl}/api/public/v1${path}`, {
          headers: { authorization: `Bearer ${auth.token}`, 'x-service-tenant': auth.tenant },
        });
    });
    for (const c of misbehaving.filter((x) => x.timing)) await judgedTiming(c);
    await pool(
      [
        ...wellBehaved.map((c) => () => judgedWell(c)),
        ...misbehaving.filter((x) => !x.timing).map((c) => () => judged(c.does, c.run, c.options)),
        ...receivers.map((r) => () => judged(r.does, (t) => checkReceiver(t, r))),
      ],
      8,
    );
  }, 60_000);

  /** A client's verdicts, or the test skips with the reason when every round of it was blurred. */
  const verdicts = (name: string, ctx: { skip(reason: string): never }) => {
    const skip = skipReason(name);
    if (skip) ctx.skip(skip);
    return outcome(name);
  };

  describe(`unnamed well-behaved clients${label} get no fail`, () => {
    for (const c of wellBehaved)
      it(`a client that ${c.does}`, (ctx) => {
        const o = verdicts(c.does, ctx);
        expect(failed(o), shown(o)).toEqual([]);
        for (const id of c.pass) expect(o.rules.find((r) => r.id === id)?.status, `${id}\n${shown(o)}`).toBe('pass');
      });
  });

  describe(`unnamed misbehaving clients${label} fail exactly their rule, with evidence`, () => {
    for (const c of misbehaving)
      it(`a client that ${c.does} fails ${c.fails.join(', ')}`, (ctx) => {
        const o = verdicts(c.does, ctx);
        expect(failed(o), shown(o)).toEqual([...c.fails].sort());
        for (const id of c.fails) expect(o.rules.find((r) => r.id === id)?.evidence.length).toBeGreaterThan(0);
      });
  });

  describe(`unnamed webhook receivers${round ? `, ${round}` : ''}`, () => {
    for (const r of receivers)
      it(`a receiver that ${r.does} ${r.passes ? 'passes' : 'fails'} webhooks.receiver-verifies`, (ctx) => {
        const o = verdicts(r.does, ctx);
        const rule = o.rules.find((x) => x.id === 'webhooks.receiver-verifies');
        expect(rule?.status, JSON.stringify(o.receiverCheck?.cases, null, 1)).toBe(r.passes ? 'pass' : 'fail');
        if (!r.passes) expect(rule?.evidence.length).toBeGreaterThan(0);
      });
  });
}
