import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 20 probes at the rules' edges: a renewal margin set too wide, a key suffixed with the attempt
 * number, a same-origin browser call without Origin, an init container's `until` loop.
 */
export const MISBEHAVING_PROBES_20: FaultyClient[] = [
  // "Tokens are short-lived and are renewed, not extended" (and "request an access token ... send it"):
  // Spring Security's clockSkew set to 250 s for a 300 s token, so the manager renews 50 s after each issue,
  // with 250 s left; a read every 10 s for 4 minutes.
  {
    does: 'is a Spring Security OAuth2AuthorizedClientManager with clockSkew 250 s on a 300 s token, renewing every 50 s (250 s left), a read every 10 s for 4 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 300);
      let issuedAt = 0;
      for (let s = 0; s < 240; s += 10) {
        if (s - issuedAt >= 50) {
          a = auth(t, undefined, 300);
          issuedAt = s;
        }
        ok('read', await get(t, a, s % 20 ? '/providers' : '/capabilities'));
        await sleeper(t)(10_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys: the same key": a Laravel queued job builds its
  // key as "{$this->venue->id}-{$this->attempts()}", so the retry after a 500 after commit carries "-2".
  {
    does: 'is a Laravel queued job keying its create "{venue}-{$this->attempts()}" (backoff [5, 15]), so the retry after a 500 after commit goes out as "-2"',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Laravel Lahmacun' };
      await loop(
        sleeper(t),
        (n) => createWith(t, a, body, `venue-8812-laravel-lahmacun-${n + 1}`),
        (n) => [5_000, 15_000][n] ?? 15_000,
        2,
      );
    },
  },
  // "never sent from a browser": an SPA served from the partner's domain, which proxies /api/public/v1 to the
  // service (a same-origin rewrite); the browser's same-origin GET sends no Origin, but its Fetch Metadata
  // says a browser sent it, with the token from localStorage.
  {
    does: 'is an SPA behind a same-origin rewrite of /api/public/v1, its browser GET carrying the token from localStorage with Sec-Fetch-Site: same-origin and no Origin',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        referer: 'https://portal.partner.example/venues',
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'cors',
        'sec-fetch-dest': 'empty',
        'x-forwarded-host': 'portal.partner.example',
      };
      await api(t, a, 'GET', '/connectors?category=pos', { headers });
    },
  },
  // "A sample client makes up to 4 attempts" and "Clients retry with growing intervals": an init container's
  // `until curl -fsS .../connectors; do sleep 1; done` waiting for the service, through six 500s (seven
  // attempts, a fixed second apart, no success before them: no polling cadence to keep).
  {
    does: 'is an init container looping `until curl -f .../connectors; do sleep 1; done` through six 500s, seven attempts a second apart',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 6 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 1_000,
          10,
        ),
      );
    },
  },
];
