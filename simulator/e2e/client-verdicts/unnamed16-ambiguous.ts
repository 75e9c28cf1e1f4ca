import { auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 16, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_16: AmbiguousClient8[] = [
  {
    does: 'is a Logic Apps run whose create failed (500) and which an operator resubmits 60 s later: the new run keys the same create by its own run name',
    why: '"use a new key for each new operation": a resubmitted run is a new run with a new name, chosen by a person after reading the failure; whether it is a new operation or a retry of the failed create (which then must keep its key) the interface does not say',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1681);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Resubmitted Rotisserie' };
      await createWith(t, a, body, `run-${uuid(random)}`);
      await sleeper(t)(60_000);
      await createWith(t, a, body, `run-${uuid(random)}`);
    },
  },
  {
    does: 'is a Logic Apps Recurrence trigger reading connections every 60 s, one poll refused 429 with Retry-After: 90, the next poll on schedule 60 s later',
    why: '"respect the wait time of the response": each run of a recurrence is started by the schedule, not by the refused one, yet it is the same read of the same client at a steady cadence; whether a scheduled poll owes an earlier poll’s Retry-After the interface does not say',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let poll = 0; poll < 5; poll++) {
        if (poll === 2) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 90, count: 1 });
        await get(t, a, '/connections');
        await sleeper(t)(60_000);
      }
    },
  },
  {
    does: 'runs two stream consumers sharing one cached token: the first is cut after 3, a second starts up 1 s later reading live only (no cursor), the first resumes from its last number',
    why: '"the client resumes without gaps": the second consumer resumes nothing, but with one token for both the rules see one process (processes sharing a token are one process), so its fresh start is taken for the first consumer’s reconnect without a cursor, and the first consumer’s resume for a read-again; with a token each it is a wrong verdict (unnamed16-streams.ts)',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const shared = auth(t, undefined, 3_600);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, shared, { idleMs: 600, onOpen: () => publish(t, shared.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, shared, { idleMs: 600, onOpen: () => publish(t, shared.tenant, 1) });
      await sleeper(t)(1_000);
      await readStream(t, shared, { cursor: last, idleMs: 600, onOpen: () => publish(t, shared.tenant, 1) });
    },
  },
];
