import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 33 of the unseen violations, part 1: answers — a second tenant's creation echoing the first
 * tenant's key, beta connectors without a provider and allowed decisions without a reason under the
 * alternate address, replays of issued keys left unmarked, listed venue names taken from the
 * connector's first connection, development connections without a state, a second tenant's key expiry
 * without a zone, and the alternate address's provider filter leaking the next provider's connector.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
/** A call for a tenant other than the run's own one; call it on every call, as it records that tenant from the first. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isListing = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');

export const ROUND33_ANSWERS: UnseenViolation[] = [
  {
    name: 'second-tenant-creation-echoes-home-key',
    statement: 'Meta: idempotencyKey | string | no | the key used for the call (for a second tenant’s creation too)',
    answer(c, a) {
      // The key echo is read from a per-client "last key" cache filled by the first tenant's calls.
      const second = isSecond(c);
      if (!isCreate(c) || a.status !== 200 || !a.json.meta) return;
      if (!second) return void c.memory.set('r33-home-key', c.headers['idempotency-key']);
      const last = c.memory.get('r33-home-key');
      if (typeof last === 'string' && last !== c.headers['idempotency-key']) a.json.meta.idempotencyKey = last;
    },
  },
  {
    name: 'alt-beta-connectors-provider-id-null',
    statement: 'Connector: providerId | string (under {alt_base_url} too, for connectors in beta)',
    answer(c, a) {
      // The alternate region joins connectors to a providers table that only holds released providers.
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      for (const x of (a.json.data?.connectors ?? []) as Rec[]) if (x?.status === 'beta') x.providerId = null;
    },
  },
  {
    name: 'alt-allowed-decision-reason-null',
    statement:
      'CapabilityDecision (all fields required): reason | string (under {alt_base_url}, for allowed decisions)',
    answer(c, a) {
      // The alternate build only fills the reason for refusals ("nothing to explain when allowed").
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200) return;
      const d = a.json.data?.decision as Rec | undefined;
      if (d?.allowed === true) d.reason = null;
    },
  },
  {
    name: 'issued-key-replay-not-marked',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set (also for a key from POST /idempotency-keys)',
    answer(c, a) {
      // Issued keys live in a second table; the replay path that marks answers only looks at client keys.
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.status === 200) {
        const key = a.json.data?.idempotencyKey;
        if (typeof key === 'string') c.memory.set(`r33-issued:${key}`, true);
        return;
      }
      const key = c.headers['idempotency-key'] ?? '';
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true || !c.memory.has(`r33-issued:${key}`))
        return;
      delete a.json.meta.replayed;
      delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'listed-scope-label-from-connectors-first-connection',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue (each listed connection shows its own)',
    answer(c, a) {
      // The list query joins the venue table on connectorId, so every connection of a connector shows
      // the label of that connector's first connection of the tenant.
      if (!isListing(c) || a.status !== 200) return;
      const list = (a.json.data?.connections ?? []) as Rec[];
      const first = new Map<string, { at: string; label: unknown }>();
      for (const x of list) {
        const seen = first.get(x?.connectorId);
        if (!seen || String(x.createdAt) < seen.at)
          first.set(x?.connectorId, { at: String(x.createdAt), label: x.scopeLabel });
      }
      for (const x of list) {
        const seen = first.get(x?.connectorId);
        if (seen) x.scopeLabel = seen.label;
      }
    },
  },
  {
    name: 'development-created-state-null',
    statement: 'Connection: state | string (a created development connection too)',
    answer(c, a) {
      // Development connections skip the provisioning workflow that writes the first state.
      if (!isCreate(c) || a.status !== 200 || a.json.data?.environment !== 'development') return;
      a.json.data.state = null;
    },
  },
  {
    name: 'second-tenant-issued-key-expires-at-without-zone',
    statement:
      'Idempotency key result: expiresAt | string, date-time (for a second tenant too: a date-time carries its offset)',
    answer(c, a) {
      // The second tenant's region formats expiry with a local-time formatter that writes no offset.
      const second = isSecond(c);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200 || !second) return;
      const at = a.json.data?.expiresAt;
      if (typeof at === 'string') a.json.data.expiresAt = at.replace(/(Z|[+-]\d\d:\d\d)$/, '');
    },
  },
  {
    name: 'alt-provider-filter-leaks-next-provider',
    statement:
      'GET /api/public/v1/connectors: providerId | string | no — restricts the list (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region pages by provider with an inclusive upper bound: the next provider's first
      // connector is appended to a providerId-filtered list.
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      const list = a.json.data?.connectors as Rec[] | undefined;
      if (!Array.isArray(list)) return;
      if (![...c.search.keys()].length) return void c.memory.set(`r33-all:${tenantOf(c)}`, list);
      const all = c.memory.get(`r33-all:${tenantOf(c)}`) as Rec[] | undefined;
      const wanted = c.search.get('providerId');
      if (c.base !== 'alt' || !all || !wanted || !list.length) return;
      const next = all.find((x) => x?.providerId !== wanted && !list.some((y) => y?.id === x?.id));
      if (!next) return;
      list.push(next);
      a.json.data.count = list.length;
    },
  },
];
