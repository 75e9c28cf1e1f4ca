import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { byTokenGroup } from './unnamed40-kit.ts';
import {
  apigeeFailover,
  breakerExponential,
  bunGuidance,
  DENIED,
  EARLIER_VERSION,
  expiryAcrossTenants,
  restartFailover,
  serviceBusCreate,
  someWebhook,
  staggeredStreams,
  twoStreams,
} from './unnamed42-kit.ts';

/**
 * Round 42, well-behaved clients at the rules' edges: the main and the alternate address used as one service,
 * the earlier published version sent on purpose, two streams resumed each from its own number, a DELETE
 * retried under its key, a breaker's growing half-open waits, one token across tenants, sibling workers
 * renewing near expiry. Each must get no `fail`; the interface sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_42: UnnamedClient2[] = [
  // "retry only after rate_limited and internal": one failover retry at once, to the other address.
  {
    does: 'is an Apigee proxy with two TargetServers (main and alternate address, one token) failing a read over to the alternate at once after a 500, for three reads',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 1 });
        ok(path, await apigeeFailover(t, a, path));
        await sleep(5_000);
      }
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": the earlier version is published.
  {
    does: 'is a client pinned to the earlier published Service-Version 2026-06-12 for reads, a create and a stream open',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await api(t, a, 'GET', '/connectors', { version: EARLIER_VERSION }));
      const body = { ...CONNECTION, scopeLabel: 'Pinned Pantry' };
      ok('create', await api(t, a, 'POST', '/connections', { body, key: 'pinned-4202', version: EARLIER_VERSION }));
      ok('list', await api(t, a, 'GET', '/connections', { version: EARLIER_VERSION }));
    },
  },
  // "resumes without gaps by sending ... (last number read)": each stream from its own last number.
  {
    does: 'is a reader keeping one stream on the main and one on the alternate address (one token), resuming each after a cut from its own last number',
    pass: ['stream.resume-from-last-read'],
    run: (t) => twoStreams(t, auth(t), (own) => own.at(-1) ?? 0),
  },
  // "the same key with the same content returns the same response again": a DELETE takes a key too, and its
  // retry after a committed 500 keeps it, getting the deletion back rather than a 404.
  {
    does: 'is a Sails.js cleanup script deleting a webhook under a key, whose DELETE committed and answered 500, retried once after 600 ms under the same key (replayed)',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const id = await someWebhook(t, a, 'sails-hook-4204');
      await sleeper(t)(3_000);
      fault(t, { kind: 'commit_then_fail', route: 'deleteWebhook', failWith: 'internal' });
      const one = await api(t, a, 'DELETE', `/webhooks/${id}`, { key: 'sails-del-4204' });
      await sleeper(t)(600);
      const two = await api(t, a, 'DELETE', `/webhooks/${id}`, { key: 'sails-del-4204' });
      if (one.status !== 500) throw new Error(`answered ${one.status}`);
      replayed('delete', two);
    },
  },
  // "growing intervals and slight random spread": the breaker's open-state wait doubles with a draw.
  {
    does: 'is a breaker whose half-open probe is the retry, its open wait 1 s * 2^n times a draw in [0.5, 1.5), three reads through two 500s each',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = breakerExponential(seeded(4205));
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), wait, 3));
        await sleep(8_000);
      }
    },
  },
  // "retry with growing intervals": one integrator token, each tenant's read its own operation and schedule.
  {
    does: 'is a Bun worker with one integrator token reading three tenants one after another, each through two 500s on the guidance schedule',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    options: ALL_TENANTS,
    async run(t) {
      const token = as(t, TENANTS[0], 900);
      const sleep = sleeper(t);
      const wait = bunGuidance(seeded(4206));
      for (const tenant of TENANTS) {
        fault(t, { kind: 'internal', route: 'listConnectors', tenant, count: 2 });
        ok(tenant, await loop(sleep, () => get(t, { ...token, tenant }, '/connectors'), wait, 3));
        await sleep(2_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed": two sibling workers, each renewing its own with 60 s left.
  {
    does: 'is two sibling Bun workers (one with tenant A, one with B and C), each with its own 5-minute token renewed with 60 s left, reading every 15 s for 16 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) =>
      byTokenGroup(t, TENANTS, {
        group: (tenant) => (tenant === TENANTS[0] ? 'one' : 'two'),
        ttlS: 300,
        renewAfterS: 240,
        everyS: 15,
        minutes: 16,
      }),
  },
  // "the same key with the same content returns the same response again": the redelivery keeps its MessageId.
  {
    does: 'is an Azure Service Bus worker keying a create by MessageId, whose message is abandoned after a 500 and redelivered 40 s later with the same MessageId',
    pass: ['retry.same-key-and-content'],
    run: async (t) =>
      void replayed(
        'redelivery',
        await serviceBusCreate(t, auth(t), { label: 'Bus Bakery', secondId: 'sb-msg-4201-a' }),
      ),
  },
  // "the same key with the same content": a FeathersJS retry hook that keeps the key in `context.params`.
  {
    does: 'is a FeathersJS client whose before-hook stores the Idempotency-Key in context.params once, retried by an error hook through a 500 and a 429 (Retry-After 1)',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Feathers Fondue' };
      const send = () => createWith(t, a, body, 'feathers-ctx-4209');
      ok('create', await retrying(sleeper(t), send, bunGuidance(seeded(4209)), { max: 3 }));
    },
  },
  // "retry ... respect the wait time": the alternate address answers for the same service, so a 429 there is
  // waited out before the main address is tried again.
  {
    does: 'is an Apigee proxy whose failover read met a 429 (Retry-After 2) on the alternate address and waits it out before reading the main address again',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      const first = await get(t, a, '/providers');
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      const second = await get(alternate(t), a, '/providers');
      if (first.status !== 500 || second.status !== 429) throw new Error(`answered ${first.status}, ${second.status}`);
      await sleeper(t)(Math.max(second.retryAfterMs, 1_000) + 120);
      ok('read', await get(t, a, '/providers'));
    },
  },
  // "remedy: request a new access token": one cache for both tenants, renewed once after the 401.
  {
    does: 'is an integrator with one token cache for tenants A and B, renewed after A met a 401 past expiry, B reading with the renewed token 10 s later',
    pass: ['auth.renewed-after-expiry', 'auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) => expiryAcrossTenants(t, { perTenant: false }),
  },
  // "capability_denied ... remedy": the booking is corrected (the capability not offered dropped) and sent as
  // a new operation under a new key; nothing is repeated unchanged.
  {
    does: 'is a client whose create was refused 409 capability_denied, corrected by dropping the capability not offered and sent under a new key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const refused = await createWith(t, a, DENIED, 'cap-first-4212');
      if (refused.json?.error?.code !== 'capability_denied') throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_500);
      ok('corrected', await createWith(t, a, { ...DENIED, capabilities: ['orders.read'] }, 'cap-fixed-4212'));
    },
  },
  // "(last number read)": each stream resumed from what it read, the main one behind the alternate.
  {
    does: 'is a reader whose main stream was cut at 2 while its alternate stream read on to 4 and was cut, resuming main from 2 and alternate from 4',
    pass: ['stream.resume-from-last-read'],
    run: (t) => staggeredStreams(t, auth(t), (m, n) => [m.at(-1) ?? 0, n.at(-1) ?? 0]),
  },
  // "resumes without gaps" and "respect the wait time of the response": the restart's 503 waited out, the
  // stream reopened on the alternate address with the last id.
  {
    does: 'is an SSE reader that, refused 503 by a restart, waits its Retry-After and reopens on the alternate address with the last id read',
    pass: ['stream.resume-from-last-read'],
    run: async (t) => void (await restartFailover(t, auth(t), { quick: 1, wait: (ms) => ms + 100 })),
  },
  // The same dashboard's poll through three 500s at its cadence: polling, as the README says.
  {
    does: 'is a dashboard polling GET /webhooks/{id} every 30 s (three 200s), the poll going on at its cadence through three 500s',
    pass: [],
    async run(t) {
      const monitor = auth(t);
      const id = await someWebhook(t, monitor, 'dash-hook-4215');
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'getWebhook', count: 3 });
        seen.push((await get(t, monitor, `/webhooks/${id}`)).status);
        await sleeper(t)(30_000);
      }
      if (seen.join() !== '200,200,200,500,500,500') throw new Error(`answered ${seen.join()}`);
    },
  },
];
