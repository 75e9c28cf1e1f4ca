import { auth, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { renewingReader } from './unnamed23-well-behaved-more.ts';

/**
 * Round 23, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_23: AmbiguousClient8[] = [
  {
    does: 'is a .NET worker on Duende.AccessTokenManagement’s default RefreshBeforeExpiration (60 s) given 100 s tokens, renewing every 40 s, a read every 10 s',
    why: '"Tokens are short-lived and are renewed, not extended": the library renews 60 s before expiry, its default, which on a 100 s token is after 40 % of its lifetime; the interface leaves token lifetimes and when to renew open ("token lifetimes: not shown"), and the rule counts a token replaced with more than half its lifetime and more than 60 s left as churn only above 60 s',
    judged: [],
    async run(t) {
      await renewingReader(t, { ttlS: 100, beforeS: 60, everyMs: 10_000, calls: 30 });
    },
  },
  {
    does: 'is a .NET worker on Duende.AccessTokenManagement with RefreshBeforeExpiration 90 s given 150 s tokens, renewing every 60 s, a read every 10 s',
    why: '"renewed, not extended": each token is replaced with 90 s (60 % of its lifetime) left: early but by a configured skew, not churn per call; the interface does not say how early a renewal may be, the rule called more than half and more than 60 s left churn until session 28; held 60 of 150 s (over a third) and renewed within 5 minutes of expiry, it is now renewed near expiry',
    judged: [],
    async run(t) {
      await renewingReader(t, { ttlS: 150, beforeS: 90, everyMs: 10_000, calls: 30 });
    },
  },
  {
    does: 'is a live dashboard on amphp that closes the status stream when its page is left and reopens it live-only (no cursor) a minute later',
    why: '"After an interruption, the client resumes without gaps": the client closed the stream itself and wants only what happens from now; whether a deliberate close is an interruption is not said, and the rule treats any reconnect within 5 minutes without a cursor as a gap',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const first = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      if (first.length !== 2) throw new Error(`read ${first.length}`);
      await sleeper(t)(60_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
