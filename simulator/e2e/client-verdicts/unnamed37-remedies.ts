import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { nowOf } from './unnamed33-kit.ts';
import { janetSleep } from './unnamed37-kit.ts';

/**
 * Round 37, misbehaving clients whose retries cross a token renewal: a read's and a keyed create's attempts
 * across a 401 remedied at once, and a read's across a renewal with no 401; a failed create whose key is lost
 * with the token its 401 renewed, or with a session renewed near expiry; a 429's wait cut short by a token
 * renewed for it. Three are WRONG VERDICTS today (2026-11-28), left failing as they should be: the rules take
 * the call after a 401's remedy as a new call and judge nothing before it, so the attempts are counted afresh
 * (`retry.attempt-limit` passes five and six sends of one operation) and the create failed before the 401 is
 * not looked at (`retry.same-key-and-content` passes a new key that made a second connection). The same
 * renewals without a 401 are caught.
 */
export const MISBEHAVING_37_REMEDIES: (FaultyClient & { options?: SandboxOptions })[] = [
  // "A sample client makes up to 4 attempts": the read's attempts span a token renewal (the 2 s token
  // expires during the backoff; the 401 is remedied at once and the retries go on with the new token).
  // WRONG VERDICT today (see above): fails nothing.
  {
    does: 'is a Janet script whose 2 s token expires during a read’s backoff: three 500s, a 401 remedied at once with a new token, another 500 and a success: five attempts of one read across two tokens',
    fails: ['retry.attempt-limit'],
    async run(t) {
      let a = auth(t, undefined, 2);
      const waits = janetSleep(seeded(3771));
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      let r = await get(t, a, '/connectors');
      for (let n = 0; n < 5 && r.status !== 200; n++) {
        if (r.status === 401) {
          a = auth(t, undefined, 600);
          fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
        } else await sleeper(t)(waits(n));
        r = await get(t, a, '/connectors');
      }
      ok('read', r);
    },
  },
  // "A sample client makes up to 4 attempts": the same, but the token is renewed by its cache (under 60 s
  // left of 2 minutes) before the fourth attempt, with no 401: five attempts of one read across two tokens.
  {
    does: 'is a Janet script whose token cache renews its 2-minute token (under 60 s left) during a read’s backoff: four 500s and a success, five attempts of one read across two tokens',
    fails: ['retry.attempt-limit'],
    async run(t) {
      let a = auth(t, undefined, 120);
      const bornAt = nowOf(t);
      let renewed = false;
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      const waits = janetSleep(seeded(3772));
      await sleeper(t)(58_000);
      let r = await get(t, a, '/connectors');
      for (let n = 0; n < 4 && r.status !== 200; n++) {
        await sleeper(t)(waits(n));
        if (!renewed && nowOf(t) - bornAt > 60_000) {
          a = auth(t, undefined, 120);
          renewed = true;
        }
        r = await get(t, a, '/connectors');
      }
      ok('read', r);
    },
  },
  // "the same key with the same content": the create failed (500, committed), its retry with the key met
  // a 401 (the token expired meanwhile), and the 401 handler re-runs the request builder, which makes a new
  // token and, with it, a new key: the service creates the connection a second time.
  // WRONG VERDICT today (see above): fails nothing.
  {
    does: 'is a Pony client whose 401 handler re-runs its request builder (a new token, and a new key with it): a create answered 500 (committed), retried with its key into a 401, then sent with a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      let a = auth(t, undefined, 2);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
      const body = { ...CONNECTION, scopeLabel: 'Rebuilt Rösti' };
      const first = await createWith(t, a, body, 'pony-req-0001');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(2_500);
      const expired = await createWith(t, a, body, 'pony-req-0001');
      if (expired.status !== 401) throw new Error(`answered ${expired.status}`);
      a = auth(t, undefined, 600);
      ok('rebuilt', await createWith(t, a, body, 'pony-req-0002'));
      if (t.sandbox.state.connections.count() !== 2) throw new Error('no duplicate');
    },
  },
  // "respect the wait time of the response": the token cache takes a 429 for a throttled token, renews it,
  // and sends the read again with the new one 1 s into the 5 s Retry-After (the old token is never used again).
  {
    does: 'is a V client whose token cache takes a 429 (Retry-After 5) for a throttled token: it renews and sends the read with the new token 1 s later, the old one never used again',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const old = auth(t, undefined, 600);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      const first = await get(t, old, '/providers');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      ok('again', await get(t, auth(t, undefined, 600), '/providers'));
    },
  },
  // "the same key with the same content": the key lives in the token's session object, so the token
  // cache's renewal (under 60 s left, no 401) before the retry makes a new key for the failed create.
  {
    does: 'is a V client keeping the Idempotency-Key in its token session: the session is renewed (under 60 s left, no 401) during a create’s backoff after a 500, and the retry goes out under the new session’s key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const old = auth(t, undefined, 120);
      ok('read', await get(t, old, '/connectors'));
      await sleeper(t)(59_000);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Session Satay' };
      const first = await createWith(t, old, body, 'session-a-1');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_600);
      ok('retry', await createWith(t, auth(t, undefined, 120), body, 'session-b-1'));
    },
  },
  // "up to 4 attempts": a keyed create through three 500s, a 401 (the 2 s token expired in the backoff)
  // remedied at once, another 500 and a success, all under one key: six sends of one operation.
  // WRONG VERDICT today (see above): fails nothing.
  {
    does: 'is a Janet script whose 2 s token expires during a create’s backoff: three 500s, a 401 remedied at once, another 500 and a success, all under one key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      let a = auth(t, undefined, 2);
      const waits = janetSleep(seeded(3775));
      const body = { ...CONNECTION, scopeLabel: 'Keyed Kedgeree' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      let r = await createWith(t, a, body, 'janet-keyed-1');
      for (let n = 0; n < 5 && r.status !== 200; n++) {
        if (r.status === 401) {
          a = auth(t, undefined, 600);
          fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        } else await sleeper(t)(waits(n));
        r = await createWith(t, a, body, 'janet-keyed-1');
      }
      ok('create', r);
    },
  },
];
