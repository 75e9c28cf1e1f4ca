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
 * receiver check. All run first, several at once (each on its own sandbox clock, which its sleeps
 * advance: the waits judged are the ones chosen, however busy the machine), then each test reads its
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
  const { judged, outcome } = createOutcomes();
  const { wellBehaved, misbehaving, receivers } = clients;
  const label = round ? `, ${round},` : '';

  beforeAll(async () => {
    const jobs = [
      ...wellBehaved.map((c) => () => judged(c.does, c.run, c.options)),
      ...misbehaving.map((c) => () => judged(c.does, c.run, c.options)),
      ...receivers.map((r) => () => judged(r.does, (t) => checkReceiver(t, r))),
    ];
    // Twelve at a time, whatever they judge: verdicts no longer depend on how busy the process is
    // (sandbox clocks), and the real waits left (stream readers noticing silence, receivers answering
    // late) overlap. Not all at once: fifty servers and clients in one process starved beside a busy
    // loop saw a connection fail now and then (a transport failure changes what a client does).
    await pool(jobs, 12);
  }, 60_000);

  describe(`unnamed well-behaved clients${label} get no fail`, () => {
    for (const c of wellBehaved)
      it(`a client that ${c.does}`, () => {
        const o = outcome(c.does);
        expect(failed(o), shown(o)).toEqual([]);
        for (const id of c.pass) expect(o.rules.find((r) => r.id === id)?.status, `${id}\n${shown(o)}`).toBe('pass');
      });
  });

  describe(`unnamed misbehaving clients${label} fail exactly their rule, with evidence`, () => {
    for (const c of misbehaving)
      it(`a client that ${c.does} fails ${c.fails.join(', ')}`, () => {
        const o = outcome(c.does);
        expect(failed(o), shown(o)).toEqual([...c.fails].sort());
        for (const id of c.fails) expect(o.rules.find((r) => r.id === id)?.evidence.length).toBeGreaterThan(0);
      });
  });

  describe(`unnamed webhook receivers${round ? `, ${round}` : ''}`, () => {
    for (const r of receivers)
      it(`a receiver that ${r.does} ${r.passes ? 'passes' : 'fails'} webhooks.receiver-verifies`, () => {
        const o = outcome(r.does);
        const rule = o.rules.find((x) => x.id === 'webhooks.receiver-verifies');
        expect(rule?.status, JSON.stringify(o.receiverCheck?.cases, null, 1)).toBe(r.passes ? 'pass' : 'fail');
        if (!r.passes) expect(rule?.evidence.length).toBeGreaterThan(0);
      });
  });
}
