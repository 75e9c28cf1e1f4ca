import type { AccessToken } from '../core/context.ts';
import { must } from '../lib/invariant.ts';
import type { CallRecord } from './observation.ts';
import { type ClientRule, type Evidence, evidence, verdict } from './rule.ts';

// The duties a client has with its access tokens: reuse one until it nears expiry, and renew one the
// service refused as expired rather than sending it on ("Tokens are short-lived and are renewed, not
// extended"; unauthorized: "token expired ... request a new access token").

/** A token with more than this left is still good: fetching another one is needless. */
export const TOKEN_STILL_GOOD_MS = 60_000;
/** A token's last call and the next token's first call this close together belong to one run of calls. */
export const SAME_RUN_MS = 10_000;
/**
 * ...or no further apart than this share of the longest gap between the old token's own calls: a
 * process calling every 15 s that switches tokens 15 s after its last call goes on at its cadence, it
 * is no later run (a job started again makes its calls close together, then nothing until the next run).
 */
export const RUN_CADENCE_SHARE = 1.25;

export const tokenReused: ClientRule = {
  id: 'auth.token-reused',
  severity: 'SHOULD',
  title: 'An access token is reused until it nears expiry, not fetched per call',
  section: 'Authentication',
  sentence:
    'request an access token from the authorization server; send it as bearer token. Tokens are short-lived and are renewed, not extended.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const b of buckets) {
      const calls = b.calls.slice().filter((c) => c.token);
      const [first] = calls;
      if (!first || calls.length < 2) continue;
      const order: AccessToken[] = [];
      const uses = new Map<AccessToken, CallRecord[]>();
      for (const c of calls) {
        if (!c.token) continue;
        const list = uses.get(c.token);
        if (list) list.push(c);
        else {
          uses.set(c.token, [c]);
          order.push(c.token);
        }
      }
      // A token replaced, within the same run of calls, while it had more than half its life (and a
      // minute) left: renewing near expiry, after a 401, or for a later run (a job started again) is not churn.
      const needless = order.filter((t, i) => {
        const after = order[i + 1];
        const mine = uses.get(t);
        const theirs = after && uses.get(after);
        const last = mine?.at(-1);
        const next = theirs?.[0];
        if (!after || !last || !next || last.at > next.at || last.status === 401) return false;
        const left = t.expiresAt - after.issuedAt;
        const sameRun = Math.max(SAME_RUN_MS, longestGap(mine ?? []) * RUN_CADENCE_SHARE);
        return left > TOKEN_STILL_GOOD_MS && left * 2 > t.expiresAt - t.issuedAt && next.at - last.at < sameRun;
      });
      const firstUse = (t: AccessToken) => must(uses.get(t)?.[0], 'every token in order was used at least once');
      if (needless[0] && needless.length >= 2)
        bad.push(
          evidence(
            b,
            needless.slice(0, 5).map((t) => firstUse(t).requestId),
            firstUse(needless[0]).at,
            `${needless.length} tokens replaced while more than half their life was left (used for ${needless.map((t) => uses.get(t)?.length ?? 0).join(', ')} call(s))`,
          ),
        );
      else good.push(evidence(b, [first.requestId], first.at, `${calls.length} calls on ${order.length} token(s)`));
    }
    return verdict(bad, good, 'clients', 'fewer than two authenticated calls of one client seen yet');
  },
};

/** The longest gap between consecutive calls (in arrival order): the cadence the calls came at. */
function longestGap(calls: readonly CallRecord[]): number {
  let longest = 0;
  for (let i = 1; i < calls.length; i++) longest = Math.max(longest, (calls[i]?.at ?? 0) - (calls[i - 1]?.at ?? 0));
  return longest;
}

/**
 * A client's calls may still carry the old token this long after the first 401 to it was answered: its
 * other workers' calls sent while one of them renews (a renewal takes a round trip to the token endpoint).
 */
export const RENEWAL_GRACE_MS = 5_000;

export const renewedAfterExpiry: ClientRule = {
  id: 'auth.renewed-after-expiry',
  severity: 'SHOULD',
  title: 'A token the service refused as expired is renewed, not sent again',
  section: 'Errors',
  sentence:
    'unauthorized (401): call was not signed in; causes: token missing, token expired, wrong environment; remedy: request a new access token, check the environment. Tokens are short-lived and are renewed, not extended.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const b of buckets) {
      // The first 401 each token got once it had expired, and the calls it was sent with afterwards.
      const refused = new Map<AccessToken, CallRecord>();
      const later = new Map<AccessToken, CallRecord[]>();
      for (const c of b.calls.slice().sort((x, y) => x.at - y.at)) {
        const t = c.token;
        if (!t) continue;
        const first = refused.get(t);
        if (first && first.answeredAt > 0 && c.at > first.answeredAt + RENEWAL_GRACE_MS) {
          const list = later.get(t) ?? [];
          list.push(c);
          later.set(t, list);
        } else if (!first && c.status === 401 && t.expiresAt <= c.at) refused.set(t, c);
      }
      for (const [t, first] of refused) {
        const again = later.get(t);
        if (again?.[0])
          bad.push(
            evidence(
              b,
              [first.requestId, ...again.slice(0, 4).map((c) => c.requestId)],
              first.at,
              `the token refused as expired was sent ${again.length} more time(s), the first ${Math.round((again[0].at - first.answeredAt) / 1000)} s after the 401`,
            ),
          );
        else
          good.push(evidence(b, [first.requestId], first.at, 'renewed (or not used again) after its 401 as expired'));
      }
    }
    return verdict(bad, good, 'clients', 'no call with an expired token answered 401 seen yet');
  },
};

/** The token duties, in report order. */
export const TOKEN_RULES: readonly ClientRule[] = [tokenReused, renewedAfterExpiry];
