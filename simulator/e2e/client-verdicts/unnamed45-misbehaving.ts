import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { base64Key, created, PRODUCTION_REFUND, refused, sharedTokenCache, venue } from './unnamed45-kit.ts';

/**
 * Round 45, misbehaving clients whose remedy is no remedy: a new token after a 403, one batch key for three
 * 428s, a key percent-encoded (still outside the pattern), a worker sending a token another worker saw
 * expire, a shared retry pipeline that takes 409, a reader rebuilt by its writer's 401 handler, a supervisor
 * restarting into the same 403, halves of one create under one key, a sibling ignoring a 429's wait, a 404
 * re-read percent-encoded, a key sent in the query after a 428. Each must fail exactly the rule it breaks.
 */
export const MISBEHAVING_45: (FaultyClient & { options?: SandboxOptions })[] = [
  // "forbidden ... check the permissions of the access": a token of the same access has the same permissions.
  {
    does: 'is an Axios interceptor that refreshes the token on 401 or 403 and replays the request once: a read for a tenant it is not released for is sent again at once with the fresh token (403 again)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const cache = sharedTokenCache(t);
      const read = (a: { token: string; tenant: string }) => get(t, { ...a, tenant: 'alpine-bistro' }, '/connections');
      const old = cache.get();
      refused('first', await read(old), 403, 'forbidden');
      refused('replayed', await read(await cache.renew(old)), 403, 'forbidden');
    },
  },
  // "use a new key for each new operation": one key minted per batch answers three 428s with three bodies.
  {
    does: 'is a PHP Guzzle Pool (concurrency 3) whose 428 handler mints one Idempotency-Key per pool and sends the three refused creates again under it',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const bodies = ['Guzzle Garden', 'Promise Pantry', 'Pool Side Pizza'].map((l) => venue(l));
      await Promise.all(
        bodies.map(async (body) => refused('keyless', await api(t, a, 'POST', '/connections', { body }), 428)),
      );
      const key = 'guzzle-pool-4502';
      const again = await Promise.all(bodies.map((body) => createWith(t, a, body, key)));
      if (again.filter((r) => r.status === 409).length !== 2) throw new Error('expected two conflicts');
    },
  },
  // "Idempotency-Key: pattern ^[A-Za-z0-9._:-]{8,128}$": percent-encoding leaves it outside (the % sign).
  {
    does: 'is a Ruby Faraday client whose create under a standard-base64 key is refused 400 and which sends it again 1 s later with the key percent-encoded (%2B, %2F, %3D: still outside the pattern)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = venue('Faraday Fish Bar');
      const key = base64Key(seeded(4503));
      refused('base64', await createWith(t, a, body, key), 400);
      await sleeper(t)(1_000);
      refused('percent-encoded', await createWith(t, a, body, encodeURIComponent(key)), 400);
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a worker's stale copy of an expired token.
  {
    does: 'is a Java service of two threads sharing a token cache, one of which copied the token into a field: after the other saw it expire (401) and renewed, it sends its own read with the expired copy 8 s later',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const cache = sharedTokenCache(t, undefined, 300);
      const sleep = sleeper(t);
      const copy = cache.get();
      ok('before', await get(t, copy, '/providers'));
      await sleep(400_000);
      refused('a', await get(t, cache.get(), '/connectors'), 401);
      ok('a renewed', await get(t, await cache.renew(copy), '/connectors'));
      await sleep(8_000);
      refused('b stale', await get(t, copy, '/capabilities'), 401);
      ok('b renewed', await get(t, cache.get(), '/capabilities'));
    },
  },
  // "retry only after rate_limited and internal": the pipeline shared by both creates also handles 409.
  {
    does: 'is a .NET Task.WhenAll of two creates for two tenants through one Polly pipeline whose ShouldHandle includes 409: the 500 is retried under its key, and so is the 409 capability_denied, twice',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const cache = sharedTokenCache(t, 'network-integrator');
      const sleep = sleeper(t);
      const random = seeded(4505);
      fault(t, { kind: 'internal', route: 'createConnection', tenant: 'harbour-kitchens', count: 1 });
      const wait = (n: number) => 500 * 2 ** n + 1 + Math.floor(random() * 249);
      const retryIf = (r: { status: number }) => r.status === 409 || r.status >= 500;
      const send = (tenant: string, body: object, key: string) =>
        loop(sleep, () => createWith(t, { ...cache.get(), tenant }, body, key), wait, 2, retryIf);
      const [harbour, alpine] = await Promise.all([
        send('harbour-kitchens', venue('Polly Harbour Pier'), 'polly-harbour-4505'),
        send('alpine-bistro', PRODUCTION_REFUND, 'polly-alpine-4505'),
      ]);
      ok('harbour', harbour);
      refused('alpine', alpine, 409, 'capability_denied');
    },
  },
  // "After an interruption, the client resumes without gaps": the writer's 401 handler rebuilt the shared client.
  {
    does: 'is a Python process whose stream reader and writer share one httpx client: the stream is cut after three messages, the writer’s read is refused 401 and its handler rebuilds the client, so the reader reconnects without Last-Event-ID',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const cache = sharedTokenCache(t, undefined, 60);
      const first = cache.get();
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, first, { count: 3, onOpen: () => publish(t, first.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids.length} of 3`);
      await sleeper(t)(61_000);
      refused('writer', await get(t, first, '/connections'), 401);
      const renewed = await cache.renew(first);
      ok('writer renewed', await get(t, renewed, '/connections'));
      await readStream(t, renewed, { idleMs: 400 });
    },
  },
  // "retry only after rate_limited and internal": a supervisor's restart sends the refused read again.
  {
    does: 'is an Erlang supervisor (one_for_one, intensity 3) restarting a worker that crashes on its 403 (tenant not released) 1 s after each crash, so the read is sent three more times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'lakeside-cafes' };
      const sleep = sleeper(t);
      for (let start = 0; start < 4; start++) {
        refused(`start ${start}`, await get(t, a, '/connectors'), 403);
        if (start < 3) await sleep(1_000);
      }
    },
  },
  // "use a new key for each new operation": the two halves of a too long list are two operations.
  {
    does: 'is a Scala service whose create of 25 capabilities is refused 400 and which splits the list into chunks of 24 and 1, sending both chunks in parallel under one new key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const caps = ['orders.read', 'orders.create', 'menu.read', 'menu.sync', 'tables.status'];
      const all = Array.from({ length: 25 }, (_, i) => caps[i % caps.length] ?? 'orders.read');
      const body = (capabilities: string[]) => venue('Scala Steakhouse', { capabilities });
      refused('25', await createWith(t, a, body(all), 'scala-steak-0001'), 400);
      const halves = await Promise.all(
        [all.slice(0, 24), all.slice(24)].map((c) => createWith(t, a, body(c), 'scala-steak-0002')),
      );
      if (!halves.some((r) => r.status === 409)) throw new Error('expected a conflict');
    },
  },
  // "respect the wait time of the response": a sibling sharing the token is the same process.
  {
    does: 'is a Sidekiq process of three threads sharing one token: a create refused 429 (Retry-After 2 s) goes back on the queue and another thread sends it with its key 300 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const cache = sharedTokenCache(t);
      const body = venue('Sidekiq Supper Club');
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      refused('first', await createWith(t, cache.get(), body, 'sidekiq-supper-4509'), 429);
      await Promise.all([
        created(t, cache.get(), venue('Sidekiq Snack Bar'), 'sidekiq-snack-4509'),
        (async () => {
          await sleeper(t)(300);
          ok('requeued', await createWith(t, cache.get(), body, 'sidekiq-supper-4509'));
        })(),
      ]);
    },
  },
  // "not_found ... wrong identifier: compare identifier": the service routes %5F as _ (the same entry), and the
  // rules README says "Paths are compared as the service routes them", so this is the 404 repeated unchanged.
  {
    does: 'is a C++ cpr client reading a connection by an id from another environment’s database (404), then 1 s later the same id percent-encoded (%5F for _) “in case the underscore was the problem”',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const id = 'con_Pil0tVenue_4510';
      refused('wrong id', await get(t, a, `/connections/${id}`), 404);
      await sleeper(t)(1_000);
      refused('encoded', await get(t, a, `/connections/${id.replaceAll('_', '%5F')}`), 404);
    },
  },
  // "idempotency_required ... remedy: send the key"; "Header Idempotency-Key is required": a query parameter is
  // not that header, so the second call is the 428 repeated with nothing done about it.
  {
    does: 'is a Bash script on curl that answers a 428 by sending the create again with its key in the query (?idempotencyKey=, as its SDK does for GET-style tools), is refused 428 again and stops',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = venue('Query Key Kitchen');
      refused('keyless', await api(t, a, 'POST', '/connections', { body }), 428);
      await sleeper(t)(500);
      refused('query key', await api(t, a, 'POST', '/connections?idempotencyKey=query-key-4501', { body }), 428);
    },
  },
];
