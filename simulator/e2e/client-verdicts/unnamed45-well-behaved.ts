import { api, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import {
  base64Key,
  base64url,
  checkOn,
  created,
  PRODUCTION_REFUND,
  refused,
  sharedTokenCache,
  venue,
} from './unnamed45-kit.ts';

/**
 * Round 45, well-behaved clients that do what an error's remedy says, several workers at once: a key after
 * 428, a key brought into the pattern after 400, another tenant after 403, the right tenant header after 404,
 * a body fixed after 400 or 409, another access after a 403 for a missing scope, one renewal for three 401s.
 * Each must get no `fail`; the interface sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_45: UnnamedClient2[] = [
  // "idempotency_required ... remedy: send the key"; "the same key with the same content returns the same response".
  {
    does: 'is a Kotlin coroutineScope of three workers sharing one token cache whose legacy SDK sends creates without a key: each 428 is answered by a key from POST /idempotency-keys, and the create a 500 hits is retried under it',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const cache = sharedTokenCache(t);
      const sleep = sleeper(t);
      const random = seeded(4501);
      const bodies = ['Coroutine Corner', 'Suspend Street Deli', 'Flow Collector Bistro'].map((l) => venue(l));
      const keys = await Promise.all(
        bodies.map(async (body) => {
          refused('keyless', await api(t, cache.get(), 'POST', '/connections', { body }), 428, 'idempotency_required');
          const k = await api(t, cache.get(), 'POST', '/idempotency-keys', {
            body: { operation: 'connection.create' },
          });
          return ok('key', k).json.data.idempotencyKey as string;
        }),
      );
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const wait = (n: number) => 500 * 2 ** n + 1 + Math.floor(random() * 249);
      await Promise.all(
        bodies.map(async (body, i) =>
          ok(`create ${i}`, await loop(sleep, () => createWith(t, cache.get(), body, keys[i] ?? ''), wait, 3)),
        ),
      );
    },
  },
  // "Idempotency-Key: pattern ^[A-Za-z0-9._:-]{8,128}$": a key outside it is refused whatever the body, so the
  // same body under the key re-encoded into the pattern is the remedy, not the 400 repeated.
  {
    does: 'is a Zig std.http client whose four parallel creates carry standard-base64 keys (+, /, =), all refused 400, and sends each body again once under its key re-encoded as unpadded base64url',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4502);
      const jobs = [1, 2, 3, 4].map((i) => ({ body: venue(`Zig Zag Grill ${i}`), key: base64Key(random) }));
      await Promise.all(jobs.map(async (j) => refused('base64', await createWith(t, a, j.body, j.key), 400)));
      await sleeper(t)(200);
      await Promise.all(jobs.map(async (j) => ok('base64url', await createWith(t, a, j.body, base64url(j.key)))));
    },
  },
  // "forbidden ... tenant not released: check the permissions of the access"; a 429's wait is respected.
  {
    does: 'is a Gleam OTP supervisor whose three workers share one integrator token, one per tenant of its routing table: the lakeside-cafes worker is refused 403 and re-routes the job to alpine-bistro, the harbour worker waits out a 429 (Retry-After 2 s) plus 180 ms',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const cache = sharedTokenCache(t, 'network-integrator');
      const sleep = sleeper(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', tenant: 'harbour-kitchens', retryAfterSeconds: 2 });
      const read = (tenant: string) => get(t, { ...cache.get(), tenant }, '/connections');
      await Promise.all([
        (async () =>
          ok(
            'harbour',
            await loop(
              sleep,
              () => read('harbour-kitchens'),
              (_n, r) => r.retryAfterMs + 180,
              3,
            ),
          ))(),
        (async () => {
          refused('lakeside', await read('lakeside-cafes'), 403, 'forbidden');
          ok('re-routed', await read('alpine-bistro'));
        })(),
      ]);
    },
  },
  // "not_found ... entry belongs to another tenant: compare identifier and tenant header".
  {
    does: 'is an integrator whose reader, sharing its writer’s token, fetches the connection the writer just created for alpine-bistro with the harbour-kitchens header (404), compares id and tenant and fetches it again with alpine-bistro',
    pass: [],
    async run(t) {
      const cache = sharedTokenCache(t, 'network-integrator');
      const alpine = { ...cache.get(), tenant: 'alpine-bistro' };
      const id = await created(t, alpine, venue('Alpine Hut Kitchen'), 'alpine-hut-4504');
      refused('wrong tenant', await get(t, { ...cache.get(), tenant: 'harbour-kitchens' }, `/connections/${id}`), 404);
      ok('right tenant', await get(t, alpine, `/connections/${id}`));
    },
  },
  // "resumes without gaps ... (last number read)" beside a writer fixing a 400 in its body under a new key.
  {
    does: 'is a Deno process with a stream reader and a writer: the writer’s create with a 121-character scopeLabel is refused 400 and sent truncated to 120 under a new key while the reader, cut after two messages, resumes from the second',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const label = 'Deno Land Diner '.padEnd(121, 'x');
      const writer = (async () => {
        refused('long label', await createWith(t, a, venue(label), 'deno-writer-0001'), 400, 'invalid_request');
        ok('truncated', await createWith(t, a, venue(label.slice(0, 120)), 'deno-writer-0002'));
      })();
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      await writer;
      if (ids.length !== 2) throw new Error(`read ${ids.length} of 2`);
      await sleeper(t)(500);
      await readStream(t, a, { cursor: ids[1], idleMs: 400 });
    },
  },
  // "capability_denied ... have the capability released": it asks the decisions and books only what is released.
  {
    does: 'is an Effect-TS program whose production create is refused 409 capability_denied, checks both capabilities in production in parallel and creates again under a new key with the one allowed',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      refused('refund', await createWith(t, a, PRODUCTION_REFUND, 'effect-prod-0001'), 409, 'capability_denied');
      const decisions = await Promise.all(
        PRODUCTION_REFUND.capabilities.map((c) => checkOn(t, a, PRODUCTION_REFUND.connectorId, c, 'production')),
      );
      const allowed = decisions
        .filter((d) => ok('decision', d).json.data.decision.allowed)
        .map((d) => d.json.data.decision.capability);
      ok('released only', await createWith(t, a, { ...PRODUCTION_REFUND, capabilities: allowed }, 'effect-prod-0002'));
    },
  },
  // The key in the pattern after a 400 to a key outside it (a merged header value "k, k") is the remedy.
  {
    does: 'is a Go client that called Header.Add twice, so a proxy merged its Idempotency-Key into “k, k” (refused 400), and after switching to Header.Set sends the same body under k',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = venue('Gopher Grill House');
      refused('merged', await createWith(t, a, body, 'gopher-grill-0451, gopher-grill-0451'), 400);
      await sleeper(t)(300);
      ok('set once', await createWith(t, a, body, 'gopher-grill-0451'));
    },
  },
  // "capabilities ... 1 to 24 items": a list merged from two templates had duplicates; it is deduplicated.
  {
    does: 'is a Clojure service merging two capability templates into 25 entries with duplicates (refused 400) that sends the distinct ones under a new key, beside a second venue created in parallel',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const caps = ['orders.read', 'orders.create', 'menu.read', 'menu.sync', 'tables.status'];
      const merged = Array.from({ length: 25 }, (_, i) => caps[i % caps.length] ?? 'orders.read');
      refused('25', await createWith(t, a, venue('Clojure Cellar', { capabilities: merged }), 'clj-cellar-0001'), 400);
      await Promise.all([
        created(t, a, venue('Clojure Cellar', { capabilities: [...new Set(merged)] }), 'clj-cellar-0002'),
        created(t, a, venue('Clojure Courtyard'), 'clj-courtyard-0001'),
      ]);
    },
  },
  // "unauthorized ... token expired: request a new access token": one renewal serves every worker.
  {
    does: 'is a Rust service of three tokio tasks sharing a singleflight token cache: after a 7-minute pause all three reads are refused 401 at once, one renewal is made and each read is sent again with the new token',
    pass: ['auth.renewed-after-expiry'],
    async run(t) {
      const cache = sharedTokenCache(t, undefined, 300);
      const paths = ['/providers', '/connectors', '/capabilities'];
      for (const p of paths) ok(p, await get(t, cache.get(), p));
      await sleeper(t)(420_000);
      await Promise.all(
        paths.map(async (p) => {
          const old = cache.get();
          refused(p, await get(t, old, p), 401);
          ok(`${p} renewed`, await get(t, await cache.renew(old), p));
        }),
      );
    },
  },
  // "not_found ... wrong identifier: compare identifier": the retired connector id is looked up, not repeated.
  {
    does: 'is a Dart program checking three connectors in parallel isolates: the check of a retired id (tillcraft-legacy) is refused 404, it lists the provider’s connectors and checks tillcraft-legacy-bridge',
    pass: [],
    async run(t) {
      const a = auth(t);
      const ids = ['tillcraft-pos-cloud', 'tillcraft-legacy', 'tillcraft-kitchen-display'];
      const answers = await Promise.all(ids.map((id) => checkOn(t, a, id, 'orders.read')));
      refused('retired', answers[1] ?? { status: 0, json: undefined, retryAfterMs: 0 }, 404, 'not_found');
      const list = ok('connectors', await get(t, a, '/connectors?providerId=tillcraft'));
      const next = (list.json.data.connectors as { id: string }[]).find((c) => c.id.startsWith('tillcraft-legacy'));
      if (!next) throw new Error('no legacy connector listed');
      ok('replacement', await checkOn(t, a, next.id, 'orders.read'));
    },
  },
  // "forbidden ... role missing: check the permissions of the access": another access with the scope.
  {
    does: 'is a deployment whose create under the read-only catalog-reader access is refused 403 (scope connections:write missing) and which sends it under the same key with the harbour-backend access',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const body = venue('Scope Switch Saloon');
      refused('reader', await createWith(t, auth(t, 'catalog-reader'), body, 'scope-switch-4511'), 403, 'forbidden');
      ok('backend', await createWith(t, auth(t, 'harbour-backend'), body, 'scope-switch-4511'));
    },
  },
  // Two remedies in a row: "send the key" after 428, then the key brought into the Limits' pattern after 400.
  {
    does: 'is an OpenResty (Lua) client whose create without a key is refused 428, whose first key (“lua venue 0045”, with spaces) is refused 400, and which sends the same body under “lua-venue-0045”',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = venue('Lua Lantern Bar');
      refused('keyless', await api(t, a, 'POST', '/connections', { body }), 428, 'idempotency_required');
      refused('spaces', await createWith(t, a, body, 'lua venue 0045'), 400, 'invalid_request');
      ok('in the pattern', await createWith(t, a, body, 'lua-venue-0045'));
    },
  },
  // A 429 to the writer is owed by the writer's retry, not by the reader's reconnect (another call).
  {
    does: 'is a Swift process whose writer’s create is refused 429 (Retry-After 2 s) and retried under its key after 2.2 s while its stream reader, cut at the same moment after two messages, reconnects with the second after 300 ms',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content', 'stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      if (ids.length !== 2) throw new Error(`read ${ids.length} of 2`);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const body = venue('Swift Actor Alley');
      await Promise.all([
        (async () => {
          refused('writer', await createWith(t, a, body, 'swift-actor-4513'), 429);
          await sleep(2_200);
          ok('writer retried', await createWith(t, a, body, 'swift-actor-4513'));
        })(),
        (async () => {
          await sleep(300);
          await readStream(t, a, { cursor: ids[1], idleMs: 400 });
        })(),
      ]);
    },
  },
];
