import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 7 of the unseen violations (partial, written under time pressure): answers whose shape or
 * arithmetic breaks the contract under one condition — a route left out of the self-description, a
 * field dropped on the alternate address, a list flattened when it has one entry, a count that
 * leaves entries out, a detail sent as a number.
 */
type Rec = Record<string, unknown>;

export const ROUND7_ANSWERS: UnseenViolation[] = [
  {
    name: 'self-description-omits-audit-route',
    statement:
      'GET /api/public/v1: data: ... routes (array of RouteInfo) — the endpoint table lists GET /api/public/v1/audit-log',
    answer(c, a) {
      // A route table generated from the "documented" routes only, and the audit log is a sample call.
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200) return;
      const routes = a.json.data?.routes as Rec[] | undefined;
      if (Array.isArray(routes)) a.json.data.routes = routes.filter((r) => !String(r.path).endsWith('/audit-log'));
    },
  },
  {
    name: 'alt-self-description-without-surface',
    statement: 'GET /api/public/v1: data: service (string), surface (string), version (string), ...',
    answer(c, a) {
      // The alternate address is served by a slimmer build that has no surface name configured.
      if (c.base === 'alt' && c.method === 'GET' && c.path === P('') && a.status === 200 && a.json.data)
        delete a.json.data.surface;
    },
  },
  {
    name: 'pilot-connection-capabilities-lack-idempotency-flag',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    answer(c, a) {
      // Pilot connections are stored by an older writer that never recorded the idempotency flag.
      if (c.path !== P('/connections') || a.status >= 300) return;
      const rows: Rec[] = a.json.data?.connections ?? (a.json.data?.connection ? [a.json.data.connection] : []);
      for (const row of Array.isArray(rows) ? rows : [])
        if (row.environment === 'pilot' && Array.isArray(row.capabilities))
          for (const e of row.capabilities as Rec[]) delete e.idempotencyRequired;
    },
  },
  {
    name: 'single-capability-connector-as-string',
    statement: 'Connector: capabilities | array of string',
    answer(c, a) {
      // An XML-to-JSON style serializer collapses one-element arrays.
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      for (const row of (a.json.data?.connectors ?? []) as Rec[])
        if (Array.isArray(row.capabilities) && row.capabilities.length === 1) row.capabilities = row.capabilities[0];
    },
  },
  {
    name: 'catalog-count-excludes-critical',
    statement: 'GET /api/public/v1/capabilities: data: count (integer), capabilities (array of Capability)',
    answer(c, a) {
      // The count comes from a "safe capabilities" query that skips critical ones.
      if (c.method !== 'GET' || c.path !== P('/capabilities') || a.status !== 200) return;
      const list = a.json.data?.capabilities as Rec[] | undefined;
      if (Array.isArray(list)) a.json.data.count = list.filter((x) => x.critical !== true).length;
    },
  },
  {
    name: 'failure-detail-as-number',
    statement: 'Failure envelope: error.detail | string | no',
    answer(_c, a) {
      // The detail carries the internal error number instead of words.
      if (a.status >= 400 && a.json.error && typeof a.json.error === 'object') a.json.error.detail = a.status * 100 + 1;
    },
  },
];
