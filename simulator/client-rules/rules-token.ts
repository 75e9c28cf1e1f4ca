import type { AccessToken } from '../core/context.ts';
import { must } from '../lib/invariant.ts';
import type { CallRecord, ClientBucket } from './observation.ts';
import { type ClientRule, type Evidence, evidence, verdict } from './rule.ts';

// The duties a client has with its access tokens: reuse one until it nears expiry, and renew one the
// service refused as expired rather than sending it on ("Tokens are short-lived and are renewed, not
// extended"; unauthorized: "token expired ... request a new access token").

/** A token with more than this left is still good: fetching another one is needless. */
export const TOKEN_STILL_GOOD_MS = 60_000;
/**
 * Token caches renew ahead of expiry by a fixed window (MSAL and the AWS SDKs 5 minutes, Google's auth library
 * 3 min 45 s): a token held for a third of its life or more and replaced with no more than this left is renewed
 * near expiry, however short the tokens (8-minute tokens renewed 5 minutes early are held 3 minutes, 37 %). A
 * token held less is churn even inside the window: 5-minute tokens replaced every 90 s (30 %) waste most of each.
 */
export const SDK_REFRESH_WINDOW_MS = 300_000;
/** ...held at least this share of its lifetime before it was replaced (a token per call is held seconds). */
export const HELD_SHARE = 1 / 3;
/** A token's last call and the next token's first call this close together belong to one run of calls. */
export const SAME_RUN_MS = 10_000;
/**
 * ...or no further apart than this share of the longest gap between the old token's own calls: a
 * process calling every 15 s that switches tokens 15 s after its last call goes on at its cadence, it
 * is no later run (a job started again makes its calls close together, then nothing until the next run).
 */
export const RUN_CADENCE_SHARE = 1.25;
/**
 * ...or, for a client that takes up new tokens often (at least three times, every two spacings in a row within
 * this on average)
 * after tokens none of whose calls failed (401, 429, 5xx: what a process is restarted after): a poller or an
 * event handler fetching a token per call (Telegraf's 10 s collection, a handler per order event) is one run at
 * that cadence. A job restarted after failures is not judged so, and a scheduler starts jobs a minute or more apart.
 */
export const STEADY_RUN_MS = 30_000;
/** Spacings each this much longer than the one before are a restart back-off, not a cadence. */
export const BACK_OFF_GROWTH = 1.5;

/** A call with the tenant it was made for. */
type TenantCall = CallRecord & { tenant: string };

/**
 * A client's calls across its tenants, in arrival order: a token is the client's, not the tenant's (the tenant
 * is a header of the call), so what a token did is judged over every tenant it served (an integrator's one token
 * refused as expired for one tenant and sent on for another).
 */
function byClient(buckets: readonly ClientBucket[]): { client: string; tenant: string; calls: TenantCall[] }[] {
  const out = new Map<string, { client: string; tenants: string[]; calls: TenantCall[] }>();
  for (const b of buckets) {
    const c = out.get(b.client) ?? { client: b.client, tenants: [], calls: [] };
    c.tenants.push(b.tenant);
    c.calls.push(...b.calls.slice().map((call) => ({ ...call, tenant: b.tenant })));
    out.set(b.client, c);
  }
  return [...out.values()].map((c) => ({
    client: c.client,
    tenant: c.tenants.join(', '),
    calls: c.calls.sort((x, y) => x.at - y.at),
  }));
}

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
    for (const b of byClient(buckets)) {
      const calls = b.calls.filter((c) => c.token);
      const [first] = calls;
      if (!first || calls.length < 2) continue;
      const order: AccessToken[] = [];
      const uses = new Map<AccessToken, TenantCall[]>();
      for (const c of calls) {
        if (!c.token) continue;
        const list = uses.get(c.token);
        if (list) list.push(c);
        else {
          uses.set(c.token, [c]);
          order.push(c.token);
        }
      }
      const firstUse = (t: AccessToken) => must(uses.get(t)?.[0], 'every token in order was used at least once');
      const steady = steadyCadence(order.map((t) => firstUse(t).at));
      // A token replaced, within the client's same run of calls, while it had more than half its life (and a
      // minute) left: renewing near expiry, after a 401, or for a later run (a job started again) is not churn.
      // Its replacement is the next token whose first call is for a tenant it served (a token per tenant's
      // turn serves another tenant, no replacement); the run is the client's, across its tenants.
      const needless = order.filter((t, i) => {
        const mine = uses.get(t) ?? [];
        const last = mine.at(-1);
        if (!last || last.status === 401) return false;
        const served = new Set(mine.map((c) => c.tenant));
        const after = order.slice(i + 1).find((n) => served.has(firstUse(n).tenant));
        const next = after && firstUse(after);
        // Still in use beside its successor (another process of the client): no replacement.
        if (!after || !next || last.at > next.at) return false;
        const left = t.expiresAt - after.issuedAt;
        const lifetime = t.expiresAt - t.issuedAt;
        if (left <= SDK_REFRESH_WINDOW_MS && after.issuedAt - t.issuedAt >= HELD_SHARE * lifetime) return false;
        const unfailed = mine.every((c) => c.status !== 401 && c.status !== 429 && c.status < 500 && c.status > 0);
        const sameRun = Math.max(SAME_RUN_MS, longestGap(mine) * RUN_CADENCE_SHARE, unfailed ? steady : 0);
        // The calls in between that belong to this run: this token's, and those of tokens taken up after its last
        // call (another tenant's turn); a sibling process's token, in use all along, is another run beside it.
        const between = calls.filter(
          (c) => c.at >= last.at && c.at <= next.at && c.token && (c.token === t || firstUse(c.token).at >= last.at),
        );
        return left > TOKEN_STILL_GOOD_MS && left * 2 > lifetime && longestGap(between) < sameRun;
      });
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

/**
 * The reach of a client's cadence of new tokens when it takes them up often: at least three spacings between
 * first uses, every two in a row under STEADY_RUN_MS on average and none 1.5 times it, not each growing by
 * BACK_OFF_GROWTH; 1.25 times the longest. Zero otherwise (no cadence to go on).
 * @example steadyCadence([0, 10_500, 21_800, 32_000]) // 14_125 (1.25 x the longest spacing, 11,300 ms)
 */
export function steadyCadence(firstUses: readonly number[]): number {
  const spacings = firstUses.slice(1).map((at, i) => at - (firstUses[i] ?? at));
  if (spacings.length < 3) return 0;
  const longest = Math.max(...spacings);
  // Spacings that grow by half or more each time are a back-off (a crash-looping pod restarted after 0, 10, 20 s).
  const backOff = spacings.every((x, i) => i === 0 || x >= BACK_OFF_GROWTH * (spacings[i - 1] ?? x));
  // Every two spacings in a row under STEADY_RUN_MS on average, none 1.5 times it: reads 20 and 35 s apart in
  // turn are one process's cadence; two schedules a minute each (12 and 48 s, or 1 and 58 s, in turn) are jobs
  // started again.
  const steady =
    longest <= 1.5 * STEADY_RUN_MS &&
    spacings.every((x, i) => i === 0 || x + (spacings[i - 1] ?? x) < 2 * STEADY_RUN_MS);
  return !backOff && Math.min(...spacings) > 0 && steady ? longest * RUN_CADENCE_SHARE : 0;
}

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
    for (const b of byClient(buckets)) {
      // The first 401 each token got once it had expired, and the calls it was sent with afterwards.
      const refused = new Map<AccessToken, CallRecord>();
      const later = new Map<AccessToken, CallRecord[]>();
      for (const c of b.calls) {
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
