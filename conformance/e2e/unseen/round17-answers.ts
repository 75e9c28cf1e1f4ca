import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 17 of the unseen violations, part 3: answers wrong under one condition — a check's meta.at
 * without seconds, a decision naming the capability by its label, listed creation times an hour late
 * under the alternate address, connectors without their name there, critical capabilities without a
 * label, production creations without nextStep, a denied decision's reason as an object, and a key
 * conflict sent with status 428.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const words = (id: string) =>
  id
    .split(/[._:-]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

export const ROUND17_ANSWERS: UnseenViolation[] = [
  {
    name: 'check-meta-at-without-seconds',
    statement: 'Meta: at | string, date-time | yes (POST /api/public/v1/capabilities)',
    answer(c, a) {
      // The check handler formats its timestamp with a minute-precision pattern shared with the UI.
      if (!isCheck(c) || !ok(a) || typeof a.json.meta?.at !== 'string') return;
      a.json.meta.at = `${new Date(a.json.meta.at).toISOString().slice(0, 16)}Z`;
    },
  },
  {
    name: 'decision-capability-holds-label',
    statement: 'CapabilityDecision: capability | string (POST /api/public/v1/capabilities: the capability checked)',
    answer(c, a) {
      // The decision is built from the catalog record and picks its display field instead of its id.
      if (isGet(c, '/capabilities') && ok(a) && Array.isArray(a.json.data?.capabilities))
        for (const x of a.json.data.capabilities as Rec[])
          if (typeof x.id === 'string' && typeof x.label === 'string') c.memory.set(`label:${x.id}`, x.label);
      const d = a.json.data?.decision as Rec | undefined;
      if (!isCheck(c) || !ok(a) || !d || typeof d.capability !== 'string') return;
      const label = (c.memory.get(`label:${d.capability}`) as string | undefined) ?? words(d.capability);
      d.capability = label === d.capability ? words(label) : label;
    },
  },
  {
    name: 'alt-listed-created-at-shifted-an-hour',
    statement:
      'Connection: createdAt | string, date-time (GET /api/public/v1/connections under {alt_base_url}: the same interface)',
    answer(c, a) {
      // The alternate address's replica stores local winter time and labels it UTC.
      if (c.base !== 'alt' || !isGet(c, '/connections') || !ok(a) || !Array.isArray(a.json.data?.connections)) return;
      for (const x of a.json.data.connections as Rec[]) {
        const t = Date.parse(x.createdAt);
        if (!Number.isNaN(t)) x.createdAt = new Date(t + 3_600_000).toISOString();
      }
    },
  },
  {
    name: 'alt-connector-name-missing',
    statement:
      'Connector: id, providerId, name, category, capabilities (GET /api/public/v1/connectors under {alt_base_url}: the same interface)',
    answer(c, a) {
      // The alternate address serves a slimmed cache entry built for a typeahead that only needs ids.
      if (c.base !== 'alt' || !isGet(c, '/connectors') || !ok(a) || !Array.isArray(a.json.data?.connectors)) return;
      for (const x of a.json.data.connectors as Rec[]) delete x.name;
    },
  },
  {
    name: 'critical-capability-label-null',
    statement: 'Capability: label | string (GET /api/public/v1/capabilities: capabilities (array of Capability))',
    answer(c, a) {
      // Critical capabilities take their label from a translation table that has no entries yet.
      if (!isGet(c, '/capabilities') || !ok(a) || !Array.isArray(a.json.data?.capabilities)) return;
      for (const x of a.json.data.capabilities as Rec[]) if (x.critical === true) x.label = null;
    },
  },
  {
    name: 'production-creation-lacks-next-step',
    statement: 'Connection: nextStep | string (POST /api/public/v1/connections: data: the Connection)',
    answer(c, a) {
      // Production connections go through a manual review whose next step is not known yet, so the field is left out.
      const d = a.json.data as Rec | undefined;
      if (isCreate(c) && ok(a) && d?.environment === 'production') delete d.nextStep;
    },
  },
  {
    name: 'denied-decision-reason-as-object',
    statement: 'CapabilityDecision (all fields required): reason | string',
    answer(c, a) {
      // Denials carry a structured reason from the policy engine that is passed through unflattened.
      const d = a.json.data?.decision as Rec | undefined;
      if (isCheck(c) && ok(a) && d?.allowed === false && typeof d.reason === 'string')
        d.reason = { code: 'capability_not_released', text: d.reason };
    },
  },
  {
    name: 'conflict-answered-428',
    statement:
      'Errors: idempotency_conflict | 409 | same idempotency key with different content (idempotency_required | 428 is the missing key)',
    answer(c, a) {
      // Every idempotency error goes through one helper that picks the status of the missing-key case.
      if (a.status === 409 && a.json.error?.code === 'idempotency_conflict') a.status = 428;
    },
  },
];
