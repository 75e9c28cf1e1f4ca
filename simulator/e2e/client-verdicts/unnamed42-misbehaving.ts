import { randomUUID } from 'node:crypto';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { ALL_TENANTS, TENANTS } from './unnamed30-kit.ts';
import { byTokenGroup } from './unnamed40-kit.ts';
import {
  ARIA2,
  apigeeFailover,
  bunGuidance,
  DENIED,
  expiryAcrossTenants,
  goKitRetry,
  restartFailover,
  sentinelProbe,
  serviceBusCreate,
  someWebhook,
  twoStreams,
  YAML_VERSION,
} from './unnamed42-kit.ts';

/**
 * Round 42, misbehaving clients whose violation looks correct: Go kit's retries at once, Sentinel's fixed
 * half-open probe, aria2c's default five tries, a dead-lettered Service Bus message resubmitted with a new
 * MessageId, a Feathers hook stamping a key on every run, a cleanup script retrying its 404, per-tenant token
 * caches refreshing at 40 % of the lifetime, a version read by js-yaml as a date, a failover ignoring the
 * alternate address's Retry-After, two streams resumed from a checkpoint one behind.
 */
export const MISBEHAVING_42: (FaultyClient & { options?: SandboxOptions })[] = [
  // "growing intervals": lb.Retry sends the next attempt at once, three times.
  {
    does: 'is a Go kit lb.Retry(4, time.Second) endpoint retrying a read at once through three 500s, for two reads',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(0, 2)) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), goKitRetry, 3));
        await sleeper(t)(10_000);
      }
    },
  },
  // "growing intervals": the breaker half-opens after the same 5 s every time.
  {
    does: 'is a Sentinel circuit breaker (timeWindow 5 s) whose half-open probe is the retry, one read through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), sentinelProbe, 3));
    },
  },
  // "up to 4 attempts ... doubles the wait": aria2c's default five tries, 1 s apart.
  {
    does: 'is aria2c --max-tries=5 --retry-wait=1 fetching a list through four 500s',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      const wait = () => ARIA2.retryWaitMs;
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, ARIA2.maxTries - 1));
    },
  },
  // "the same key with the same content": Service Bus Explorer's Resubmit sends a copy with a new MessageId.
  {
    does: 'is an Azure Service Bus worker keying a create by MessageId, whose failed (500) message is resubmitted from the dead-letter queue 40 s later with a new MessageId',
    fails: ['retry.same-key-and-content'],
    run: async (t) => void (await serviceBusCreate(t, auth(t), { label: 'Bus Brasserie', secondId: 'sb-msg-4201-b' })),
  },
  // "the same key with the same content": the before-hook runs again on the retry and stamps a new key.
  {
    does: 'is a FeathersJS client whose before-hook stamps a new Idempotency-Key each time it runs, re-run by its retry hook after a 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Feathers Falafel' };
      const send = () => createWith(t, a, body, `feathers-${randomUUID()}`);
      ok('create', await loop(sleeper(t), send, bunGuidance(seeded(4225)), 3));
    },
  },
  // "retry only after rate_limited and internal": a 404 after the webhook is gone is no reason to retry.
  {
    does: 'is a Sails.js cleanup script retrying a DELETE twice more after its 404 (taken for eventual consistency), its HTTP helper stamping a new key on each request',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const id = await someWebhook(t, a, 'sails-hook-4226');
      const remove = () => api(t, a, 'DELETE', `/webhooks/${id}`, { key: `sails-${randomUUID()}` });
      ok('delete', await remove());
      await sleeper(t)(2_000);
      const last = await loop(sleeper(t), remove, bunGuidance(seeded(4226)), 2, (r) => r.status === 404);
      if (last.status !== 404) throw new Error(`answered ${last.status}`);
    },
  },
  // "renewed, not extended": each tenant's cache refreshes at 40 % of the token's life.
  {
    does: 'is an integrator with a token cache per tenant refreshing 10-minute tokens after 4 minutes (60 % left), reading every 20 s for 20 minutes',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) =>
      byTokenGroup(t, TENANTS, { group: (tenant) => tenant, ttlS: 600, renewAfterS: 240, everyS: 20, minutes: 20 }),
  },
  // "Service-Version with the version identifier": js-yaml turned 2026-06-12 into a Date.
  {
    does: 'is a client whose YAML config has serviceVersion: 2026-06-12 unquoted (js-yaml reads a Date), sent as toISOString(), one read refused 400',
    fails: ['version.service-version-sent'],
    async run(t) {
      const r = await api(t, auth(t), 'GET', '/connectors', { version: YAML_VERSION });
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": the 429 came from the same service on the alternate address.
  {
    does: 'is an Apigee proxy whose failover read met a 429 (Retry-After 3) on the alternate address and at once reads the main address (taken as another server)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      const first = await get(t, a, '/providers');
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const second = await get(alternate(t), a, '/providers');
      if (first.status !== 500 || second.status !== 429) throw new Error(`answered ${first.status}, ${second.status}`);
      await sleeper(t)(300);
      ok('read', await get(t, a, '/providers'));
    },
  },
  // "(last number read)": one checkpoint for both streams, written before a message is handled (one behind).
  {
    does: 'is a reader keeping streams on the main and alternate address with one shared checkpoint written one behind, resuming both from it',
    fails: ['stream.resume-from-last-read'],
    run: (t) => twoStreams(t, auth(t), (_own, other) => (other.at(-1) ?? 1) - 1),
  },
  // "retry only after rate_limited and internal": every 409 is taken for idempotency_conflict, whose remedy
  // (a new key) is applied to a capability_denied that nothing about the booking changed.
  {
    does: 'is a client taking every 409 for idempotency_conflict: a create refused 409 capability_denied sent again unchanged under a new key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const one = await createWith(t, a, DENIED, 'cap-any409-4231a');
      await sleeper(t)(800);
      const two = await createWith(t, a, DENIED, 'cap-any409-4231b');
      if (one.status !== 409 || two.status !== 409) throw new Error(`answered ${one.status}, ${two.status}`);
    },
  },
  // "up to 4 attempts": the client's own three retries around a proxy that fails each over once.
  {
    does: 'is a client retrying three times on the guidance schedule through an Apigee proxy that fails each attempt over to the alternate address: six attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      ok('read', await loop(sleeper(t), () => apigeeFailover(t, a, '/providers'), bunGuidance(seeded(4232)), 3));
    },
  },
  // "remedy: request a new access token": tenant B's cache still holds the token A's cache renewed after a 401.
  {
    does: 'is an integrator with a token cache per tenant holding one token: A renews after a 401 past expiry, B sends the expired token 10 s later',
    fails: ['auth.renewed-after-expiry'],
    options: ALL_TENANTS,
    run: (t) => expiryAcrossTenants(t, { perTenant: true }),
  },
  // "retry only after rate_limited and internal": the 401 handler replays every request of the last 5 s,
  // the create that had already succeeded among them.
  {
    does: 'is a client whose 401 handler renews the token and replays every request of the last 5 s, a create that had succeeded under its key among them',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const first = auth(t, undefined, 60);
      await sleeper(t)(58_000);
      const body = { ...CONNECTION, scopeLabel: 'Replayed Ramen' };
      ok('create', await createWith(t, first, body, 'replay-4234'));
      await sleeper(t)(3_000);
      const refused = await get(t, first, '/connections');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      const renewed = auth(t);
      await createWith(t, renewed, body, 'replay-4234');
      ok('read', await get(t, renewed, '/connections'));
    },
  },
  // "retry with growing intervals": the alternate address is the same service, restarting too; trying the
  // two in turn at once is retrying a 503 at once, again and again.
  {
    does: 'is an SSE reader that, refused 503 by a restart, tries the alternate and the main address in turn at once three times before it waits the Retry-After',
    fails: ['retry.growing-waits'],
    run: async (t) => void (await restartFailover(t, auth(t), { quick: 3, wait: (ms) => ms + 100 })),
  },
];
