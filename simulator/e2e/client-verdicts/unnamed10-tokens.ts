import type { Target } from '../harness.ts';
import { type Auth, auth, type UnnamedClient2 } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';

/**
 * A token cache that renews when `due(expiresAt, now)` says so, and once after a 401 (the remedy:
 * "request a new access token"). Tokens live `ttlS` seconds on the sandbox clock.
 */
function tokenCache(t: Target, ttlS: number, due: (expiresAt: number, at: number) => boolean) {
  let a: Auth = auth(t, undefined, ttlS);
  let expiresAt = now(t) + ttlS * 1000;
  const renew = () => {
    a = auth(t, undefined, ttlS);
    expiresAt = now(t) + ttlS * 1000;
  };
  return {
    async read(path: string) {
      if (due(expiresAt, now(t))) renew();
      let r = await get(t, a, path);
      if (r.status === 401) {
        renew();
        r = await get(t, a, path);
      }
      return ok(path, r);
    },
  };
}

/** Reads every `everyMs` for `minutes`, through the cache. */
async function readFor(t: Target, cache: ReturnType<typeof tokenCache>, everyMs: number, minutes: number) {
  const sleep = sleeper(t);
  const paths = ['/providers', '/connectors', '/capabilities', '/connections'];
  for (let i = 0; i < (minutes * 60_000) / everyMs; i++) {
    await cache.read(paths[i % paths.length] ?? '/providers');
    await sleep(everyMs);
  }
}

/**
 * Round 10, tokens renewed at the very end of their lifetime. "Tokens are short-lived and are renewed,
 * not extended." Renewing near expiry is no churn, however near.
 */
export const TOKENS_10: UnnamedClient2[] = [
  {
    does: 'renews its 300 s token when less than 5 s are left, reading every 10 s for 16 minutes (each token used until 0-10 s before expiry)',
    pass: ['auth.token-reused'],
    async run(t) {
      await readFor(
        t,
        tokenCache(t, 300, (exp, at) => exp - at < 5_000),
        10_000,
        16,
      );
    },
  },
  {
    does: 'renews its 300 s token exactly at expiry (expiresAt <= now), reading every 10 s for 16 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      await readFor(
        t,
        tokenCache(t, 300, (exp, at) => exp <= at),
        10_000,
        16,
      );
    },
  },
  // The boundary the other way: `expiresAt < now` keeps the token for the read at the exact expiry
  // instant; if the service refuses it (401), the cache renews and reads again with the new token.
  {
    does: 'renews its 300 s token only once expiresAt < now, so it sends it at the exact second of expiry (renewing after a 401 if refused), reading every 12 s',
    pass: ['auth.token-reused'],
    async run(t) {
      await readFor(
        t,
        tokenCache(t, 300, (exp, at) => exp < at),
        12_000,
        16,
      );
    },
  },
];
