import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 35 of the unseen violations, part 1: answers — numeric provider ids under the alternate address,
 * a second tenant's created connections without a state, listed pilot connections with a shouted
 * environment, a second tenant's decision reasons as numeric codes, an alternate capability catalog
 * without labels, a second tenant's reads without the limit header, repeated connection reads with a
 * blank version, and alternate key results without an expiry.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);

export const ROUND35_ANSWERS: UnseenViolation[] = [
  {
    name: 'alt-provider-ids-numeric',
    statement: 'Provider: id | string (the provider list under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's read replica exposes the provider table's integer key in place of the slug.
      home(c);
      if (c.base !== 'alt' || !isGet(c, '/providers') || a.status !== 200) return;
      const providers = (a.json.data?.providers ?? []) as Rec[];
      providers.forEach((p, i) => {
        if (p && typeof p === 'object') p.id = i + 1;
      });
    },
  },
  {
    name: 'second-tenant-created-connection-lacks-state',
    statement: 'Connection: state | string | see States and transitions (a second tenant’s creation answer too)',
    answer(c, a) {
      // The second tenant's provisioning runs asynchronously and its answer is serialised before a state exists.
      const second = isSecond(c);
      if (second && isCreate(c) && a.status === 200 && a.json.data) delete a.json.data.state;
    },
  },
  {
    name: 'pilot-listed-environment-uppercased',
    statement:
      'Connection: environment | Environment; Environment (enumeration): development, sandbox, pilot, production (a listed pilot connection)',
    answer(c, a) {
      // The pilot rows were imported from a spreadsheet whose environment column was written in capitals.
      home(c);
      if (!isGet(c, '/connections') || a.status !== 200) return;
      for (const x of (a.json.data?.connections ?? []) as Rec[])
        if (x?.environment === 'pilot') x.environment = 'PILOT';
    },
  },
  {
    name: 'second-tenant-decision-reason-numeric-code',
    statement: 'CapabilityDecision (all fields required): reason | string (a second tenant’s check too)',
    answer(c, a) {
      // The second tenant's rule engine returns its internal rule number, which the mapper passes on as is.
      const second = isSecond(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (!second || c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200 || !decision) return;
      decision.reason = decision.allowed ? 0 : 1;
    },
  },
  {
    name: 'alt-capability-catalog-lacks-label',
    statement: 'Capability: label | string (the capability catalog under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's catalog query selects only the columns its old mobile client needed.
      home(c);
      if (c.base !== 'alt' || !isGet(c, '/capabilities') || a.status !== 200) return;
      for (const x of (a.json.data?.capabilities ?? []) as Rec[]) if (x && typeof x === 'object') delete x.label;
    },
  },
  {
    name: 'second-tenant-reads-lack-rate-limit-limit-header',
    statement:
      'Limits: Rate limits are configured per access, per tenant …; Response headers: X-RateLimit-Limit (limit for the current window) (a second tenant’s reads too)',
    answer(c, a) {
      // The second tenant's limits come from a plan without a numeric limit, and the header writer skips "unset".
      const second = isSecond(c);
      if (second && c.method === 'GET' && a.status === 200) delete a.headers['x-ratelimit-limit'];
    },
  },
  {
    name: 'repeated-connections-read-meta-version-blank',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (from the third connection read on)',
    answer(c, a) {
      // A per-tenant response cache rebuilds meta from a template whose version slot is filled only on a miss.
      home(c);
      if (!isGet(c, '/connections') || a.status !== 200 || !a.json.meta) return;
      const key = `r35-reads:${c.headers['x-service-tenant'] ?? ''}`;
      const n = ((c.memory.get(key) as number | undefined) ?? 0) + 1;
      c.memory.set(key, n);
      if (n >= 3) a.json.meta.version = '';
    },
  },
  {
    name: 'alt-key-issue-lacks-expires-at',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey (string), operation (string), expiresAt (date-time) (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate key store has no expiry column; its serialiser omits fields that are undefined.
      home(c);
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200) return;
      if (a.json.data && typeof a.json.data === 'object') delete a.json.data.expiresAt;
    },
  },
];
