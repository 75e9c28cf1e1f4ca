import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 23 of the unseen violations, part 1: answers — a provider with two categories answered as an
 * array, the alternate address reusing the main address's request id, decisions with an upper-cased
 * connector id, scope labels with collapsed inner blanks, the connection list forgetting a replayed
 * connection, writes reporting a full rate-limit window, created connections with the two capability
 * flags swapped, and long scope labels shortened with an ellipsis in the list.
 */
type Rec = Record<string, any>;
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const collapse = (s: string) => s.replace(/\s{2,}/g, ' ');

export const ROUND23_ANSWERS: UnseenViolation[] = [
  {
    name: 'provider-category-as-array-for-second-entry',
    statement: 'Provider: category | string',
    answer(c, a) {
      // The provider table gained a second category column; the mapper answers both as an array for
      // providers that have one (here the second provider of every unfiltered list).
      if (c.method !== 'GET' || c.path !== P('/providers') || a.status !== 200 || c.search.has('category')) return;
      const list = a.json.data?.providers as Rec[] | undefined;
      const p = Array.isArray(list) ? list[1] : undefined;
      if (p && typeof p.category === 'string') p.category = [p.category, 'delivery'];
    },
  },
  {
    name: 'alt-request-id-copied-from-main',
    statement: 'Meta: requestId | string | yes | identifier of this call, quoted for support queries',
    answer(c, a) {
      // The alternate address runs behind a second edge that forwards the request context of the
      // connection it reuses: its answers quote the request id of the last main-address call.
      if (!a.json.meta || typeof a.json.meta.requestId !== 'string') return;
      if (c.base === 'main') {
        c.memory.set('r23-last-id', a.json.meta.requestId);
        return;
      }
      const last = c.memory.get('r23-last-id');
      if (typeof last === 'string') a.json.meta.requestId = last;
    },
  },
  {
    name: 'decision-connector-id-uppercased',
    statement: 'POST /api/public/v1/capabilities: data: decision (CapabilityDecision) — connectorId | string',
    answer(c, a) {
      // The decision is built from the registry's canonical key (upper-case) instead of the connector's id.
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200) return;
      const d = a.json.data?.decision as Rec | undefined;
      if (d && typeof d.connectorId === 'string') d.connectorId = d.connectorId.toUpperCase();
    },
  },
  {
    name: 'scope-label-inner-blanks-collapsed',
    statement: 'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue',
    answer(c, a) {
      // A "normalise whitespace" helper runs on the label when it is stored: runs of blanks inside the
      // name become one, so the label read back is not the label sent.
      if (a.status !== 200) return;
      if (isCreate(c) && typeof a.json.data?.scopeLabel === 'string')
        a.json.data.scopeLabel = collapse(a.json.data.scopeLabel);
      if (isList(c) && Array.isArray(a.json.data?.connections))
        for (const x of a.json.data.connections as Rec[])
          if (typeof x?.scopeLabel === 'string') x.scopeLabel = collapse(x.scopeLabel);
    },
  },
  {
    name: 'connections-list-omits-replayed-connection',
    statement: 'GET /api/public/v1/connections: connections of the tenant — data: tenant, count, connections',
    answer(c, a) {
      // The replay path evicts the list cache entry of the connection it replays instead of refreshing
      // it: once a creation was replayed, that connection is missing from the tenant's list.
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed === true && a.json.data?.id) {
        const gone = (c.memory.get('r23-evicted') as Set<string> | undefined) ?? new Set<string>();
        gone.add(String(a.json.data.id));
        c.memory.set('r23-evicted', gone);
        return;
      }
      const gone = c.memory.get('r23-evicted') as Set<string> | undefined;
      const list = a.json.data?.connections as Rec[] | undefined;
      if (!isList(c) || a.status !== 200 || !gone || !Array.isArray(list)) return;
      const kept = list.filter((x) => !gone.has(String(x?.id)));
      if (kept.length === list.length) return;
      a.json.data.connections = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'writes-report-full-rate-limit-window',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // Writes are counted by a second limiter whose headers are written after the first one's, and
      // that limiter's remaining value is read before it was ever decremented: every POST reports the
      // whole window as left although the reads before it used part of it.
      if (c.method !== 'POST' || a.status !== 200) return;
      const limit = a.headers['x-ratelimit-limit'];
      if (limit !== undefined && a.headers['x-ratelimit-remaining'] !== undefined)
        a.headers['x-ratelimit-remaining'] = limit;
    },
  },
  {
    name: 'created-connection-capability-flags-swapped',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    answer(c, a) {
      // The creation answer maps the capability row positionally and the two boolean columns were
      // reordered in a migration: critical and idempotencyRequired come back swapped.
      if (!isCreate(c) || a.status !== 200 || !Array.isArray(a.json.data?.capabilities)) return;
      for (const e of a.json.data.capabilities as Rec[]) {
        if (typeof e?.critical !== 'boolean' || typeof e.idempotencyRequired !== 'boolean') continue;
        [e.critical, e.idempotencyRequired] = [e.idempotencyRequired, e.critical];
      }
    },
  },
  {
    name: 'listed-scope-label-shortened-with-ellipsis',
    statement: 'Connection: scopeLabel | string | descriptive name — Limits: scopeLabel | length 2 to 120',
    answer(c, a) {
      // The list reuses the dashboard's display formatter, which shortens labels over 40 characters to
      // 39 and an ellipsis; the creation answer keeps the full label.
      if (!isList(c) || a.status !== 200 || !Array.isArray(a.json.data?.connections)) return;
      for (const x of a.json.data.connections as Rec[])
        if (typeof x?.scopeLabel === 'string' && x.scopeLabel.length > 40)
          x.scopeLabel = `${x.scopeLabel.slice(0, 39)}…`;
    },
  },
];
