import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, TENANTS } from './unnamed30-kit.ts';
import {
  decorrelatedV2,
  OPENFAAS_DEFAULT_RETRIES,
  openFaasWait,
  perTenantTokens,
  ponyTimer,
  vSleepMs,
  wolverineCooldown,
} from './unnamed37-kit.ts';
import { MISBEHAVING_37_MORE } from './unnamed37-misbehaving-more.ts';
import { MISBEHAVING_37_REMEDIES } from './unnamed37-remedies.ts';

/**
 * Round 37, misbehaving clients whose violation looks correct: Wolverine's documented cooldowns (growing, but
 * the same every time), Brighter's command built inside the policy's lambda (a new Id, so a new key, per
 * attempt), V's Retry-After multiplied by `time.millisecond`, OpenFaaS's default of ten retries, a per-tenant
 * token cache whose freshness test is upside down, a Pony lookup retrying a 404. Each must fail exactly its
 * rule(s).
 */
export const MISBEHAVING_37: (FaultyClient & { options?: SandboxOptions })[] = [
  // "slight random spread": the cooldowns grow, as the docs' example writes them, but are the same on
  // every message: three reads through three 500s wait 100, 250, 500 ms each time.
  {
    does: 'is a Wolverine handler on the docs’ RetryWithCooldown(100 ms, 250 ms, 500 ms), three reads through three 500s: the same three waits each time',
    fails: ['retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: wolverineCooldown, failures: 3, max: 3 }),
  },
  // "the same key with the same content": the key is the command's Id, and the command is built inside
  // the lambda the Polly policy runs again, so each attempt carries a new Guid.
  {
    does: 'is a Brighter command processor whose command (Id = Guid.NewGuid(), sent as the key) is built inside the Polly WaitAndRetry lambda: a new key on each of two retries after 500s',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Brighter Burrito' };
      const ids = ['5f0c1d2e-0001', '5f0c1d2e-0002', '5f0c1d2e-0003'];
      const send = (n: number) => createWith(t, a, body, `cmd-${ids[n] ?? n}`);
      ok('create', await loop(sleeper(t), send, decorrelatedV2(seeded(3752)), 3));
    },
  },
  // "respect the wait time of the response": V's Retry-After multiplied by time.millisecond: 2 s read as
  // 2 ms, so the loop's own 0.5-0.75 s and 1-1.25 s backoff is what it sleeps.
  {
    does: 'is a V net.http loop sleeping time.Duration(max(retry_after * time.millisecond, backoff)) through two 429s (Retry-After 2): its own 0.5 s and 1 s backoff wins',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), vSleepMs(seeded(3753)), 3));
    },
  },
  // "up to 4 attempts": the queue-worker's max_retry_attempts defaults to 10; four 500s make five attempts.
  {
    does: 'is an OpenFaaS async function keyed by its X-Call-Id on the queue-worker’s defaults (max_retry_attempts 10, waits from 10 s doubling), a create through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Faas Fattoush' };
      const send = () => createWith(t, a, body, 'call-8e2d0b41');
      ok('create', await loop(sleeper(t), send, openFaasWait, OPENFAAS_DEFAULT_RETRIES));
    },
  },
  // "renewed, not extended": the cache means "renew at 90 % of the lifetime" but tests remaining > 90 %
  // of it, so each tenant's 10-minute token is taken again after about a minute.
  {
    does: 'is an integrator with a token cache keyed by tenant whose freshness test reads remaining > ttl * 0.9 (meant as renew at 90 %): each tenant, read every 30 s, gets a new token every 90 s',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const token = perTenantTokens(t, 600, (leftMs) => leftMs > 540_000);
      for (let i = 0; i < 60; i++) {
        ok('read', await get(t, token(TENANTS[i % 3] ?? TENANTS[0]), '/connectors'));
        await sleeper(t)(10_000);
      }
    },
  },
  // "Retry guidance: retry only after rate_limited and internal": the Pony lookup takes a 404 right after
  // a create for eventual consistency and retries it on its backoff.
  {
    does: 'is a Pony actor retrying GET /connections/{id} answered 404 on its Timer backoff, three more times (taken for eventual consistency)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const send = () => get(t, a, '/connections/conn_pony_pending_37');
      const r = await loop(sleeper(t), send, ponyTimer(seeded(3756)), 3, (x) => x.status === 404);
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  ...MISBEHAVING_37_MORE,
  ...MISBEHAVING_37_REMEDIES,
];
