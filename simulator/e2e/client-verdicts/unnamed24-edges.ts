import type { Target } from '../harness.ts';
import { auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { mojoTimer, PATHS } from './unnamed24-kit.ts';

/**
 * Round 24, well-behaved clients whose correct behaviour looks like a violation: a wait equal to an earlier
 * server-set one, waits that grow only after a Retry-After, workers pausing together on a shared token, a
 * second identical operation, renewal at exactly half the lifetime, resumption across two restarts.
 */

/** Reads every `everyMs` for `calls` calls, renewing when at most `leftFraction` of a `ttlS` token is left. */
async function renewAtFraction(t: Target, o: { ttlS: number; leftFraction: number; everyMs: number; calls: number }) {
  const now = () => t.sandbox.state.clock.now();
  let a = auth(t, undefined, o.ttlS);
  let expiresAt = now() + o.ttlS * 1_000;
  for (let i = 0; i < o.calls; i++) {
    if (expiresAt - now() <= o.ttlS * 1_000 * o.leftFraction) {
      a = auth(t, undefined, o.ttlS);
      expiresAt = now() + o.ttlS * 1_000;
    }
    ok('read', await get(t, a, PATHS[i % PATHS.length] ?? '/providers'));
    await sleeper(t)(o.everyMs);
  }
}

export const EDGES_WELL_BEHAVED_24: UnnamedClient2[] = [
  // "A wait the server set is not judged": Retry-After 1 honoured (1 s), then the client's own 1 s and 2 s
  // after two 500s. Its first own wait equals the server's, which is no equal pair of its own.
  {
    does: 'is a Mojo client waiting a 429’s Retry-After of 1 s, then its own 1 s and 2 s after two 500s (its first own wait equal to the server’s)',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listProviders', count: 2 });
      const waits = (n: number, r: { retryAfterMs: number }) =>
        r.retryAfterMs > 0 ? r.retryAfterMs : 1_000 * 2 ** (n - 1);
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), waits, 3));
    },
  },
  // "respect the wait time ... retry with growing intervals": a 429's 3 s, then the client's own 500 ms and
  // 1 s, shorter than the server's wait but growing among themselves; on three reads.
  {
    does: 'is a Roblox server waiting a 429’s Retry-After of 3 s, then its own 500 ms and 1 s (plus a draw) after two 500s, on three reads',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const own = mojoTimer(seeded(2411));
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 3, count: 1 });
        fault(t, { kind: 'internal', route, count: 2 });
        const waits = (n: number, r: { retryAfterMs: number }) => (r.retryAfterMs > 0 ? r.retryAfterMs : own(n - 1));
        ok(path, await loop(sleeper(t), () => get(t, a, path), waits, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "Rate limits are configured per access": three workers share one cached token; when one is refused 429
  // (Retry-After 2), a shared gate holds all three for 2 s, then each sends its own read (the refused one
  // again) at the same moment.
  {
    does: 'runs three workers on one cached token behind a shared gate: one read refused 429 (Retry-After 2) holds all three, then all three go at once',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      const first = await Promise.all(['/providers', '/connectors', '/capabilities'].map((p) => get(t, a, p)));
      const held = Math.max(...first.map((r) => (r.status === 429 ? r.retryAfterMs : 0)));
      if (held !== 2_000) throw new Error(`gate ${held}`);
      await sleeper(t)(held);
      for (const r of await Promise.all(
        ['/connections', '/connectors', '/providers?category=pos'].map((p) => get(t, a, p)),
      ))
        ok('after the gate', r);
    },
  },
  // "use a new key for each new operation": a create fails twice (500, not committed) and succeeds on its
  // key; 3 s later the operator books a second, identical till at the same venue under a new key.
  {
    does: 'creates a connection through two 500s under its key, then 3 s later a second identical one (a second till) under a new key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Till Twins Tapas' };
      ok('first', await loop(sleeper(t), () => createWith(t, a, body, 'till-1-7c0a41e2'), mojoTimer(seeded(2413)), 3));
      await sleeper(t)(3_000);
      const second = await createWith(t, a, body, 'till-2-94b3d6f0');
      if (second.status !== 200 || second.json?.meta?.replayed === true) throw new Error(`second ${second.status}`);
    },
  },
  // "Tokens are short-lived and are renewed, not extended": MSAL's refresh_in (half of expires_in for long
  // tokens) renews 4 h tokens once half is left; a read every 10 minutes for 11 hours.
  {
    does: 'is a service on MSAL renewing its 4 h tokens at refresh_in (half the lifetime left), a read every 10 minutes for 11 hours',
    pass: [],
    async run(t) {
      await renewAtFraction(t, { ttlS: 14_400, leftFraction: 0.5, everyMs: 600_000, calls: 66 });
    },
  },
  // "rotate the secret regularly": a worker rotates its client secret once (a new token on the new secret,
  // 80 % of the old token's lifetime left), then renews 5 minutes before expiry as usual.
  {
    does: 'renews its token once early because its client secret was rotated, then 5 minutes before expiry, a read every minute for an hour',
    pass: [],
    async run(t) {
      const now = () => t.sandbox.state.clock.now();
      let a = auth(t, undefined, 1_800);
      let expiresAt = now() + 1_800_000;
      for (let i = 0; i < 60; i++) {
        if (i === 6 || expiresAt - now() <= 300_000) {
          a = auth(t, undefined, 1_800);
          expiresAt = now() + 1_800_000;
        }
        ok('read', await get(t, a, PATHS[i % PATHS.length] ?? '/providers'));
        await sleeper(t)(60_000);
      }
    },
  },
  // "After an interruption, the client resumes without gaps": a consumer persisting its cursor in SQLite,
  // cut twice; after the second cut its pod restarts (a new token) and resumes from the persisted cursor.
  {
    does: 'is a consumer persisting its cursor in SQLite, cut twice, resuming in-process the first time and after a pod restart (new token) the second',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      let a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 2 });
      const one = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      let cursor = one.at(-1) ?? 0;
      await sleeper(t)(1_000);
      const two = await readStream(t, a, { cursor, count: 2, onOpen: () => publish(t, a.tenant, 2) });
      if (two[0] !== cursor + 1) throw new Error(`resumed at ${two[0]} after ${cursor}`);
      cursor = two.at(-1) ?? cursor;
      await sleeper(t)(40_000);
      a = auth(t);
      const three = await readStream(t, a, {
        cursor,
        asQuery: true,
        idleMs: 600,
        onOpen: () => publish(t, a.tenant, 1),
      });
      if (three[0] !== cursor + 1) throw new Error(`restarted at ${three[0]} after ${cursor}`);
    },
  },
];
