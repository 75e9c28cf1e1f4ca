import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 25 of the unseen violations, part 1: answers — created connections naming their capabilities
 * by label, every third creation echoing the previous scope label, decisions naming the previously
 * checked connector, explicit sandbox checks reported as production, a capability-filtered connector
 * count summing capabilities, the second tenant's listed environments null, replays on the alternate
 * address unmarked, and absent error hints sent as null.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : {});

export const ROUND25_ANSWERS: UnseenViolation[] = [
  {
    name: 'created-capability-entries-hold-labels',
    statement:
      'Connection: capabilities — array of object, each entry: capability (string) ... (the created connection binds the capabilities the request named)',
    answer(c, a) {
      // The creation answer is rendered by the "display" serializer shared with the portal, which puts
      // the human label where the capability id belongs; the stored row (and the list) keep the ids.
      if (c.method === 'GET' && c.path === P('/capabilities') && ok(a)) {
        for (const cap of a.json.data?.capabilities ?? []) c.memory.set(`r25-label:${cap.id}`, cap.label);
        return;
      }
      if (!isCreate(c) || !ok(a) || !Array.isArray(a.json.data?.capabilities)) return;
      for (const e of a.json.data.capabilities as Rec[]) {
        const id = String(e.capability);
        const label = c.memory.get(`r25-label:${id}`) as string | undefined;
        e.capability = label ?? id.replace(/[._-]+/g, ' ').replace(/\b\w/g, (m) => m.toUpperCase());
      }
    },
  },
  {
    name: 'every-third-creation-echoes-previous-scope-label',
    statement:
      'POST /api/public/v1/connections: data: the Connection (scopeLabel: descriptive name, e.g. the name of the venue)',
    answer(c, a) {
      // A pooled response builder is reused without reset; every third fresh creation keeps the label
      // of the creation before it.
      if (!isCreate(c) || !ok(a) || a.json.meta?.replayed === true || !a.json.data) return;
      const n = ((c.memory.get('r25-creations') as number | undefined) ?? 0) + 1;
      c.memory.set('r25-creations', n);
      const previous = c.memory.get('r25-previous-label') as string | undefined;
      c.memory.set('r25-previous-label', a.json.data.scopeLabel);
      if (n % 3 === 0 && previous !== undefined && previous !== a.json.data.scopeLabel)
        a.json.data.scopeLabel = previous;
    },
  },
  {
    name: 'decision-connector-id-of-previous-check',
    statement: 'CapabilityDecision (all fields required): connectorId (string) — a capability check returns a decision',
    answer(c, a) {
      // The decision object is memoised per capability; its connectorId is the one of the check that
      // filled the memo, not of the current one.
      if (!isCheck(c) || !ok(a) || !a.json.data?.decision) return;
      const cap = String(a.json.data.decision.capability);
      const first = c.memory.get(`r25-memo:${cap}`) as string | undefined;
      if (first === undefined) c.memory.set(`r25-memo:${cap}`, a.json.data.decision.connectorId);
      else a.json.data.decision.connectorId = first;
    },
  },
  {
    name: 'explicit-sandbox-check-reported-as-production',
    statement: 'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment)',
    answer(c, a) {
      // The answer maps the environment through the deployment's own stage name ("live sandbox" of the
      // production cluster): an explicit sandbox check is reported as production; the default is right.
      if (isCheck(c) && ok(a) && body(c).environment === 'sandbox' && a.json.data)
        a.json.data.environment = 'production';
    },
  },
  {
    name: 'capability-filtered-connector-count-sums-capabilities',
    statement: 'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector)',
    answer(c, a) {
      // The count of the capability-filtered query comes from a join over connector capabilities: it
      // counts capability rows of the matching connectors, not connectors.
      if (c.method !== 'GET' || c.path !== P('/connectors') || !ok(a) || !c.search.has('capability')) return;
      const list = a.json.data?.connectors;
      if (!Array.isArray(list)) return;
      a.json.data.count = list.reduce(
        (n: number, x: Rec) => n + (Array.isArray(x.capabilities) ? x.capabilities.length : 1),
        0,
      );
    },
  },
  {
    name: 'second-tenant-listed-environment-null',
    statement: 'Connection: environment — Environment (development, sandbox, pilot, production)',
    answer(c, a) {
      // The second tenant's rows were migrated from an older schema whose environment column is read
      // through a mapping table only seeded for the first tenant.
      const mine = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (c.method !== 'GET' || c.path !== P('/connections') || !ok(a) || !mine || !tenant || tenant === mine) return;
      for (const x of (a.json.data?.connections ?? []) as Rec[]) x.environment = null;
    },
  },
  {
    name: 'alt-replay-not-marked',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set (also under {alt_base_url})',
    answer(c, a) {
      // The alternate region's edge strips "internal" meta flags from cached answers.
      if (c.base === 'alt' && isCreate(c) && ok(a) && a.json.meta?.replayed === true) {
        delete a.json.meta.replayed;
        delete a.json.meta.idempotencyKey;
      }
    },
  },
  {
    name: 'absent-error-hint-sent-as-null',
    statement: 'Failure envelope: error.hint — string, not required (error.detail likewise)',
    answer(_c, a) {
      // The error DTO is serialised with nulls kept: an error without a hint or detail carries null.
      if (a.json.ok !== false || !a.json.error || typeof a.json.error !== 'object') return;
      if (a.json.error.hint === undefined) a.json.error.hint = null;
      if (a.json.error.detail === undefined) a.json.error.detail = null;
    },
  },
];
