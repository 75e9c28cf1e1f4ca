import { CURRENT_VERSION } from '../../contract/versions.ts';
import { api, auth, CONNECTION, fault, publish } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { ok } from './unnamed8-kit.ts';
import { createWith, hangfireDelayMs, loop } from './unnamed11-kit.ts';

/**
 * Round 11, misbehaving clients at the rules' bounds: long schedules, two addresses, a browser that
 * cannot set headers. Each must fail exactly its rule.
 */
export const PROBES_11: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": Hangfire's default [AutomaticRetry] (Attempts = 10) keeps
  // retrying one create under its key as its delays grow past two minutes: seven attempts of one
  // operation in about 25 minutes, all under one Idempotency-Key.
  {
    does: 'is a Hangfire job on the default AutomaticRetry (Attempts = 10) retrying one create under its key through six 500s, the later delays beyond 2 minutes: seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      // A two-hour token: the run lasts about 25 minutes on the sandbox clock.
      const a = auth(t, undefined, 7_200);
      const random = seeded(1161);
      fault(t, { kind: 'internal', route: 'createConnection', count: 6 });
      const body = { ...CONNECTION, scopeLabel: 'Hangfire Default Diner' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'hangfire-job-default-10'),
          (n) => hangfireDelayMs(n + 1, random),
          9,
        ),
      );
    },
  },
  // The same sentence across the two addresses: two attempts at the main address, then a failover to the
  // second one, where three more attempts go out under the same key: five attempts of one create.
  {
    does: 'makes two attempts of a create at the main address, fails over to the second address and makes three more there under the same key: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1162);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Failover Fish Bar' };
      const key = 'failover-create-0005';
      ok(
        'create',
        await loop(
          sleeper(t),
          (n) => createWith(n < 2 ? t : alternate(t), a, body, key),
          (n) => 500 * 2 ** n + Math.floor(random() * 250),
          4,
        ),
      );
    },
  },
  // "Access credentials ... are never sent from a browser": EventSource cannot set headers, so a browser
  // page puts the bearer token into the stream URL (?access_token=…); the request carries Origin.
  // A wrong verdict when written (the call has no Authorization, so auth.no-browser-credentials stayed
  // not-observed): a token in the query with Origin now counts as a credential sent from a browser.
  {
    does: 'is a browser page that opens the stream with EventSource and its bearer token in the URL (?access_token=…), Origin set by the browser',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      publish(t, a.tenant, 2);
      const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream?access_token=${encodeURIComponent(a.token)}`, {
        headers: {
          origin: 'https://venue-portal.example',
          'service-version': CURRENT_VERSION,
          accept: 'text/event-stream',
        },
      });
      await res.body?.cancel().catch(() => undefined);
    },
  },
  // "Retry guidance: retry only after rate_limited and internal": a create refused 400 sent again,
  // unchanged, at the second address, as if the other address might validate differently.
  {
    does: 'sends a create refused 400 (scopeLabel of one character) again, unchanged and under its key, at the second address',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'X' };
      const r = await createWith(t, a, body, 'bad-label-create-01');
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
      await sleeper(t)(1_000);
      await createWith(alternate(t), a, body, 'bad-label-create-01');
    },
  },
  // "unauthorized ... token expired ... Remedy: request a new access token": a catalog sync walks twelve
  // provider categories, one every 10 s, with a token that expired before it started; every call is
  // answered 401, none asks for the same content twice, and the token is never renewed.
  // A wrong verdict when written (no rule failed: auth.token-reused judges churn, and
  // retry.only-after-failure sees no repeat as every query differs): now auth.renewed-after-expiry.
  {
    does: 'walks twelve provider categories, one every 10 s, with its expired token, every call answered 401, never renewing it',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 60);
      const sleep = sleeper(t);
      ok('fresh', await api(t, a, 'GET', '/connections'));
      await sleep(70_000);
      const categories = ['pos', 'payments', 'delivery', 'reservations', 'loyalty', 'inventory'];
      for (const c of [...categories, ...categories.map((x) => `${x}-eu`)]) {
        const r = await api(t, a, 'GET', `/providers?category=${c}`);
        if (r.status !== 401) throw new Error(`answered ${r.status}`);
        await sleep(10_000);
      }
    },
  },
  // "never sent from a browser": a sandboxed iframe (or a page opened from file://) sends Origin: null,
  // with the bearer token it was handed.
  {
    does: 'is a page in a sandboxed iframe (Origin: null) calling the interface with a bearer token',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/capabilities', { headers: { origin: 'null' } });
    },
  },
];
