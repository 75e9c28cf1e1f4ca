import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { pulsarNack } from './unnamed18-kit.ts';

/**
 * Round 18, more misbehaving clients (tokens, polling through a 429, streams, keys across consumers, browsers,
 * Service-Version): each breaks one duty and must fail exactly that rule, with evidence.
 */
export const MISBEHAVING_MORE_18: FaultyClient[] = [
  // "Tokens are short-lived and are renewed, not extended": an Nginx njs handler keeps its token in a
  // per-request variable (njs VMs live one request), so every request fetches a new 1 h token.
  {
    does: 'is an Nginx njs js_content handler holding its token in a per-request variable, fetching a new 1 h token for each of ten reads 2 s apart',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 10; i++) {
        ok(`read ${i}`, await get(t, auth(t, undefined, 3_600), i % 2 ? '/providers' : '/connectors'));
        await sleeper(t)(2_000);
      }
    },
  },
  // "respect the wait time of the response": an APScheduler IntervalTrigger(seconds=5) keeps firing
  // through a 429 with Retry-After 30: the next tick comes 5 s later.
  {
    does: 'is an APScheduler IntervalTrigger(seconds=5) job polling the connectors, firing again 5 s after a 429 with Retry-After 30',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let tick = 0; tick < 6; tick++) {
        if (tick === 3) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 30, count: 1 });
        await get(t, a, '/connectors');
        await sleeper(t)(5_000);
      }
    },
  },
  // "After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter
  // cursor": a Vector http_client source scraping the stream every 15 s opens it without a cursor each
  // time, so the scrape after a cut skips what was published in between.
  {
    does: 'is a Vector http_client source scraping the stream every 15 s without a cursor, the scrape after a cut skipping what was published meanwhile',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length === 0) throw new Error('read nothing');
      publish(t, a.tenant, 2);
      await sleeper(t)(15_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "Clients retry with growing intervals": a `drush queue:run` loop whose worker releases the item at
  // once on a 500 (releaseItem, no delay), so the create goes again immediately, three times.
  {
    does: 'is a drush queue:run loop releasing a failed item at once (releaseItem, no delay), its create sent again immediately through three 500s under the item key',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Drush Doner Kebab' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'drupal-queue-item-00912'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "the same key with the same content" across processes: a Pulsar Shared subscription redelivers a nacked
  // message to the other consumer (its own token), whose handler makes a fresh key per delivery.
  {
    does: 'is a Pulsar Shared subscription whose nacked create is redelivered to a second consumer (its own token) that makes a fresh key per delivery',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      const second = auth(t, undefined, 3_600);
      const random = seeded(1875);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Shared Sub Souvlaki' };
      ok('first reads', await get(t, first, '/connections'));
      ok('second reads', await get(t, second, '/connections'));
      const r = await createWith(t, first, body, uuid(random));
      if (r.status !== 500) throw new Error(`answered ${r.status}`);
      await sleeper(t)(pulsarNack(0));
      ok('redelivered', await createWith(t, second, body, uuid(random)));
      ok('first reads again', await get(t, first, '/connections'));
    },
  },
  // "never sent from a browser": a Shopify embedded admin app (App Bridge in the admin iframe) calls the
  // service directly with a bearer token its theme bundle holds; the browser adds Origin.
  {
    does: 'is a Shopify embedded admin app calling the service from its App Bridge iframe with a bearer token (Origin sent by the browser)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'https://admin.shopify.com', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'cross-site' };
      await api(t, a, 'GET', '/connections', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Logstash http output whose
  // `headers => {...}` list was copied from an older pipeline without it.
  {
    does: 'is a Logstash http output whose headers option omits Service-Version, posting three capability checks',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const capability of ['orders.read', 'payments.refund', 'menu.sync']) {
        const body = { connectorId: CONNECTION.connectorId, capability };
        await api(t, a, 'POST', '/capabilities', { body, version: null });
        await sleeper(t)(1_000);
      }
    },
  },
];
