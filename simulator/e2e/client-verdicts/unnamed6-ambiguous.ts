import type { Target } from '../harness.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { guidanceWait, retried, transient } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 6, cases the interface does not decide: the rules' verdict is stated (`judged`: the rules it
 * fails today), not claimed right or wrong. A change of rule that moves one of them must say why.
 */
export interface AmbiguousClient {
  does: string;
  /** Why the interface does not decide it. */
  why: string;
  judged: string[];
  run(t: Target): Promise<void>;
}

export const AMBIGUOUS_6: AmbiguousClient[] = [
  {
    does: 'imports a CSV with two identical rows: the first row’s create answers 500 and is set aside for review (not retried); the duplicate row follows 300 ms later under its own key',
    why: 'the same content under a new key right after a failure is what a retry under a new key looks like; "use a new key for each new operation" allows a second identical operation, and nothing on the wire tells them apart',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(661);
      const body = { ...CONNECTION, scopeLabel: 'Twin Row Venue' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      await api(t, a, 'POST', '/connections', { body, key: `row-${uuid(random)}` });
      await sleeper(t)(300);
      await api(t, a, 'POST', '/connections', { body, key: `row-${uuid(random)}` });
    },
  },
  {
    does: 'is a CLI making the guidance’s 4 attempts of a read through an outage; the person runs the command again 20 s after it gave up, and it makes 4 attempts more',
    why: '"A sample client makes up to 4 attempts" describes one client’s operation; a person starting the command again is a new operation to the person, but the same read 20 s later to the service (as a queue redelivering a failed job is, round 5)',
    judged: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(662);
      fault(t, { kind: 'internal', route: 'listConnections', durationSeconds: 25 });
      for (let run = 0; run < 2; run++) {
        const wait = guidanceWait(random);
        await retried(
          sleep,
          () => api(t, a, 'GET', '/connections'),
          (n, x) => (transient(x) ? wait(n) : undefined),
        );
        await sleep(20_000);
      }
    },
  },
];
