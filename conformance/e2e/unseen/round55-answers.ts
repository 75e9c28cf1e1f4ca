import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 55, part 1: values at the edges of what the service holds (the last entry, the widest connector, 2 and 120 characters, rare environments). */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const entriesOf = (a: ProxyAnswer, field: string) =>
  Array.isArray(a.json.data?.[field]) ? (a.json.data[field] as Rec[]) : [];
/** Catalog values the fixtures ship with; a read of the catalog updates them (the list a deployment serves decides). */
const KEYED = new Set(['orders.create', 'orders.cancel', 'payments.capture', 'payments.refund', 'giftcards.redeem']);
for (const id of ['delivery.dispatch', 'reservations.create', 'loyalty.points.award']) KEYED.add(id);

export const ROUND55_ANSWERS: UnseenViolation[] = [
  {
    name: 'last-connector-listed-without-capabilities',
    statement:
      'Connector: id, providerId, name, category, capabilities (array of string) (the last connector of a list)',
    answer(c, a) {
      // The batch loader attaches capability rows when the next connector starts, and its final flush was never written.
      home(c);
      if (!isGet(c, '/connectors') || a.status !== 200) return;
      const list = entriesOf(a, 'connectors');
      const last = list.at(-1);
      if (list.length > 1 && last) delete last.capabilities;
    },
  },
  {
    name: 'most-capable-connector-capabilities-cut-at-120-characters',
    statement:
      'Connector: capabilities | array of string; What the service does: The service keeps a catalog of providers, connectors and capabilities (the connector with the most capabilities)',
    answer(c, a) {
      // The list query aggregates capabilities with GROUP_CONCAT into a VARCHAR(120) and splits the result again.
      home(c);
      if (!isGet(c, '/connectors') || a.status !== 200) return;
      for (const con of entriesOf(a, 'connectors')) {
        if (!Array.isArray(con?.capabilities) || (con.capabilities as string[]).join(',').length <= 120) continue;
        const kept: string[] = [];
        for (const cap of con.capabilities as string[]) {
          if ([...kept, cap].join(',').length > 120) break;
          kept.push(cap);
        }
        con.capabilities = kept;
      }
    },
  },
  {
    name: 'mixed-criticality-creation-entries-take-first-flags',
    statement:
      'Connection: capabilities | each entry: capability (string), critical (boolean), idempotencyRequired (boolean); Capability: critical, idempotencyRequired (a connection booking critical and non-critical capabilities)',
    answer(c, a) {
      // The flags are looked up once before the loop over the booked capabilities instead of once per capability.
      home(c);
      if (!isCreate(c) || a.status !== 200) return;
      const entries = entriesOf(a, 'capabilities');
      const first = entries[0];
      if (!first || entries.every((e) => e?.critical === first.critical)) return;
      for (const e of entries) {
        e.critical = first.critical;
        e.idempotencyRequired = first.idempotencyRequired;
      }
    },
  },
  {
    name: 'scope-label-of-two-characters-listed-null',
    statement:
      'Connection: scopeLabel | string | descriptive name; Limits: scopeLabel | length 2 to 120 (a connection whose scopeLabel has exactly 2 characters, listed)',
    answer(c, a) {
      // The list view's "placeholder label" cleanup treats labels under three characters (initials, "--") as unset.
      home(c);
      if (!isGet(c, '/connections') || a.status !== 200) return;
      for (const con of entriesOf(a, 'connections'))
        if (typeof con?.scopeLabel === 'string' && con.scopeLabel.length === 2) con.scopeLabel = null;
    },
  },
  {
    name: 'scope-label-of-120-listed-cut-to-100',
    statement:
      'Limits: scopeLabel | length 2 to 120; GET /api/public/v1/connections: connections (array of Connection) (a connection whose scopeLabel has 120 characters, listed)',
    answer(c, a) {
      // The list projection selects LEFT(scope_label, 100), a leftover of the old column width; creation answers the row it wrote.
      home(c);
      if (!isGet(c, '/connections') || a.status !== 200) return;
      for (const con of entriesOf(a, 'connections'))
        if (typeof con?.scopeLabel === 'string' && con.scopeLabel.length > 100)
          con.scopeLabel = con.scopeLabel.slice(0, 100);
    },
  },
  {
    name: 'development-replay-reports-sandbox-environment',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a creation in the development environment, repeated)',
    answer(c, a) {
      // The replay rebuilds the answer through a request parser whose environment enum lacks development and falls back to the default.
      home(c);
      if (
        isCreate(c) &&
        a.status === 200 &&
        a.json.meta?.replayed === true &&
        a.json.data?.environment === 'development'
      )
        a.json.data.environment = 'sandbox';
    },
  },
  {
    name: 'last-provider-connectors-filter-empty',
    statement:
      'GET /api/public/v1/connectors: providerId | string | no; data: count, connectors (filtered by the last provider of the list)',
    answer(c, a) {
      // The provider index is built with for (i = 0; i < providers.length - 1; i++), so the last provider has no bucket.
      home(c);
      if (isGet(c, '/providers') && a.status === 200 && !c.search.toString()) {
        const last = entriesOf(a, 'providers').at(-1)?.id;
        if (typeof last === 'string') c.memory.set('r55-last-provider', last);
      }
      const last = (c.memory.get('r55-last-provider') as string | undefined) ?? 'perk-pantry';
      if (!isGet(c, '/connectors') || a.status !== 200 || c.search.get('providerId') !== last) return;
      a.json.data.connectors = [];
      a.json.data.count = 0;
    },
  },
  {
    name: 'last-connector-check-not-found',
    statement:
      'Errors: not_found | 404 | the entry does not exist; POST /api/public/v1/capabilities: check a capability of a connector (the last connector of the catalog)',
    answer(c, a) {
      // The connector lookup binary-searches a sorted copy with hi = length - 1 exclusive, so the last one is never found.
      home(c);
      if (isGet(c, '/connectors') && a.status === 200 && !c.search.toString()) {
        const last = entriesOf(a, 'connectors').at(-1)?.id;
        if (typeof last === 'string') c.memory.set('r55-last-connector', last);
      }
      const last = (c.memory.get('r55-last-connector') as string | undefined) ?? 'perk-pantry-gift-cards';
      if ((isCheck(c) || isCreate(c)) && a.status === 200 && bodyOf(c.body).connectorId === last)
        refuse(a, 404, 'not_found', 'The entry does not exist.', 'No connector with this id.');
    },
  },
  {
    name: 'critical-capabilities-dropped-from-replayed-creation',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true (a creation booking a critical capability)',
    answer(c, a) {
      // The replay path re-resolves the stored capabilities through the "safe to repeat" filter, which strips critical ones.
      home(c);
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const entries = entriesOf(a, 'capabilities');
      if (entries.some((e) => e?.critical === true) && entries.some((e) => e?.critical !== true))
        a.json.data.capabilities = entries.filter((e) => e?.critical !== true);
    },
  },
  {
    name: 'keyless-check-of-key-requiring-capability-denied',
    statement:
      'Capability: idempotencyRequired | whether calls using this capability need an idempotency key; POST /api/public/v1/capabilities | yes | check a capability (a check of such a capability, sent without a key)',
    answer(c, a) {
      // The checker reuses the call guard: a capability flagged idempotencyRequired is denied when the check itself carries no key.
      home(c);
      if (isGet(c, '/capabilities') && a.status === 200)
        for (const cap of entriesOf(a, 'capabilities'))
          if (typeof cap?.id === 'string') cap.idempotencyRequired === true ? KEYED.add(cap.id) : KEYED.delete(cap.id);
      const d = a.json.data?.decision as Rec | undefined;
      if (!isCheck(c) || a.status !== 200 || !d || c.headers['idempotency-key']) return;
      if (d.allowed === true && (d.idempotencyRequired === true || KEYED.has(String(d.capability)))) {
        d.allowed = false;
        d.reason = 'An idempotency key is required for this capability.';
      }
    },
  },
];
