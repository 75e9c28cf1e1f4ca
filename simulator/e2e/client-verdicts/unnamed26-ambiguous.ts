import { type Auth, auth } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { PRECONNECT_MISBEHAVING_26 } from './unnamed26-preconnect.ts';
import { PROBES_MISBEHAVING_26 } from './unnamed26-probes.ts';
import { WELL_BEHAVED_26 } from './unnamed26-well-behaved.ts';

/**
 * Round 26, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_26: AmbiguousClient8[] = [
  {
    does: 'gets 403 on a tenant’s read, has an operator change its roles, fetches a new token and sends the read once more 30 s later (still 403)',
    why: '"forbidden ... remedy: check the permissions of the access": a new token after a role change is that remedy, but the sandbox cannot change roles, so the repeat gets the same 403; the rules see a 403 repeated unchanged but for the token',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const first = await get(t, a, '/connections');
      if (first.status !== 403) throw new Error(`answered ${first.status}`);
      await sleeper(t)(30_000);
      await get(t, { ...auth(t), tenant: 'alpine-bistro' }, '/connections');
    },
  },
  {
    does: 'uses two tokens of one client round-robin from one process to double its per-access rate limit, twenty reads 200 ms apart',
    why: '"Rate limits are configured per access ... Lasting high load is to be agreed beforehand instead of being split up": splitting load over accesses is what the sentence forbids, but no rule judges load, and two tokens in use at once read as two processes',
    judged: [],
    async run(t) {
      const tokens: Auth[] = [auth(t), auth(t)];
      const paths = ['/providers', '/connectors', '/capabilities', '/connections'];
      for (let i = 0; i < 20; i++) {
        const a = tokens[i % 2];
        if (!a) throw new Error('no token');
        ok('read', await get(t, a, paths[i % paths.length] ?? '/providers'));
        await sleeper(t)(200);
      }
    },
  },
];

/** A case of another list whose verdict the rules cannot reach from the server, with today's verdict and why. */
const undecided = (
  cases: { does: string; run: AmbiguousClient8['run']; options?: AmbiguousClient8['options'] }[],
  starts: string,
  judged: string[],
  why: string,
): AmbiguousClient8 => {
  const c = cases.find((x) => x.does.startsWith(starts));
  if (!c) throw new Error(`no case starting ${starts}`);
  return { does: c.does, run: c.run, ...(c.options ? { options: c.options } : {}), judged, why };
};

const PRECONNECTED =
  'written as misbehaving: the retry goes out within a few ms of the answer on a connection the client opened while the refused call was in flight; from the server that is two calls sent at once whose first was answered before the second was read (the connection accepted before the answer, its call arriving at once after it): the rules take it as a parallel call';

/**
 * Round 26's cases the server cannot decide (an outsider wrote them as wrong verdicts): immediate retries on
 * connections opened ahead of need, and ±10 % jitter on waits of 100-400 ms.
 */
export const UNDECIDABLE_26: AmbiguousClient8[] = [
  undecided(
    PRECONNECT_MISBEHAVING_26,
    'retries a read refused 429 (Retry-After 2 s) at once on a socket',
    [],
    PRECONNECTED,
  ),
  undecided(PRECONNECT_MISBEHAVING_26, 'sends a create refused 500 again at once under a new key', [], PRECONNECTED),
  undecided(PROBES_MISBEHAVING_26, 'pre-connects a socket while each attempt is in flight', [], PRECONNECTED),
  undecided(
    WELL_BEHAVED_26,
    'is a Bazel remote-cache Retrier',
    ['retry.spread'],
    'written as well-behaved ("slight random spread"): its ±10 % jitter on waits of 100, 200 and 400 ms differs by 9 ms (median) between sequences, within what a busy machine adds to a fixed wait (the rule needs differences over 20-40 ms), so it reads as no spread',
  ),
];
