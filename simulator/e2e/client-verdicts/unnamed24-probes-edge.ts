import { CURRENT_VERSION } from '../../contract/versions.ts';
import type { Target } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, fault, type Reply } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { mojoTimer } from './unnamed24-kit.ts';

/**
 * Round 24, violations at the edges of what the rules look at: an operation's attempts split over two keys,
 * a read retried alternately at both addresses, an expired token sent on to the public stream, a browser's
 * call relayed by a CORS proxy that drops Origin.
 */

/** A GET at the alternate address (the same interface, {alt_base_url}). */
async function getAlt(t: Target, a: Auth, path: string): Promise<Reply> {
  const res = await t.fetch(`${t.altBaseUrl}/api/public/v1${path}`, {
    headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant, 'service-version': CURRENT_VERSION },
  });
  const json = await res.json().catch(() => undefined);
  return { status: res.status, json, retryAfterMs: Number(res.headers.get('retry-after') ?? 0) * 1000 };
}

export const PROBES_EDGE_MISBEHAVING_24: FaultyClient[] = [
  // "up to 4 attempts" and "the same key with the same content": a create tried four times under its key;
  // then the app's outer retry ("try again later") makes a new key and tries four more times: eight
  // attempts of one operation, the last four under a key of their own.
  {
    does: 'tries a create four times under its key, then its outer retry makes a new key and tries four more times (eight attempts of one operation)',
    fails: ['retry.attempt-limit', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 7 });
      const body = { ...CONNECTION, scopeLabel: 'Outer Onigiri' };
      const wait = mojoTimer(seeded(2461));
      const first = await loop(sleeper(t), () => createWith(t, a, body, 'outer-try-1-5d0e'), wait, 3);
      if (first.status !== 500) throw new Error(`inner answered ${first.status}`);
      await sleeper(t)(8_000);
      ok('outer', await loop(sleeper(t), () => createWith(t, a, body, 'outer-try-2-91ac'), wait, 3));
    },
  },
  // "up to 4 attempts": a read retried five times, alternating between the main and the alternate address
  // (a client-side failover list walked round-robin).
  {
    does: 'retries one read through five 500s, alternating between the main and the alternate address (six attempts)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 5 });
      const send = (n: number) => (n % 2 ? getAlt(t, a, '/connectors') : get(t, a, '/connectors'));
      ok('read', await loop(sleeper(t), send, mojoTimer(seeded(2462)), 5));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": after its expired token was answered 401, the
  // client renews it for the REST calls but its stream reader keeps the old token and reopens the stream
  // with it 30 s later.
  {
    does: 'renews its expired token after a 401 for REST calls, but its stream reader reopens the stream 30 s later with the expired token',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('first', await get(t, old, '/connections'));
      await sleeper(t)(61_000);
      const refused = await get(t, old, '/connections');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      const fresh = auth(t);
      ok('renewed', await get(t, fresh, '/connections'));
      await sleeper(t)(30_000);
      const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream`, {
        headers: {
          authorization: `Bearer ${old.token}`,
          'x-service-tenant': old.tenant,
          'service-version': CURRENT_VERSION,
        },
      });
      await res.body?.cancel().catch(() => undefined);
    },
  },
  // "never sent from a browser": a single-page app keeps the token in JavaScript and calls through a public
  // CORS proxy that drops Origin; the browser's Sec-Fetch-* headers, Referer and User-Agent go through.
  {
    does: 'is a single-page app sending its bearer token through a CORS proxy that drops Origin (Sec-Fetch-Mode cors, Referer and a browser User-Agent go through)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      await api(t, auth(t), 'GET', '/connections', {
        headers: {
          'sec-fetch-mode': 'cors',
          'sec-fetch-site': 'cross-site',
          'sec-fetch-dest': 'empty',
          referer: 'https://venue-dashboard.example.test/',
          'user-agent':
            'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
          'x-requested-with': 'XMLHttpRequest',
        },
      });
    },
  },
];
