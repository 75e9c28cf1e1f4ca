import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 56, part 2: two answers a client reads together (key echo against the key sent, counts against lists, decisions against the catalog). */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

export const ROUND56_INPUTS: UnseenViolation[] = [
  {
    name: 'meta-idempotency-key-underscores-turned-to-hyphens',
    statement:
      'Meta: idempotencyKey | string | the key used for the call; Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (a key holding an underscore)',
    answer(c, a) {
      // The key is passed through the slugify helper used for operation names before it is stored and echoed.
      home(c);
      const key = a.json.meta?.idempotencyKey;
      if (typeof key === 'string' && key.includes('_')) a.json.meta.idempotencyKey = key.replaceAll('_', '-');
    },
  },
  {
    name: 'listed-connection-entry-flags-swapped',
    statement:
      'Connection: capabilities | each entry: capability (string), critical (boolean), idempotencyRequired (boolean); Capability: critical, idempotencyRequired (the list read against the capability catalog)',
    answer(c, a) {
      // The list query selects (capability, idempotency_required, critical) and the row mapper reads the columns by position.
      home(c);
      if (!isGet(c, '/connections') || a.status !== 200 || !Array.isArray(a.json.data?.connections)) return;
      for (const con of a.json.data.connections as Rec[])
        for (const e of Array.isArray(con?.capabilities) ? (con.capabilities as Rec[]) : []) {
          if (!e || typeof e !== 'object' || e.critical === e.idempotencyRequired) continue;
          [e.critical, e.idempotencyRequired] = [e.idempotencyRequired, e.critical];
        }
    },
  },
  {
    name: 'denied-decision-flags-defaulted-false',
    statement:
      'CapabilityDecision (all fields required): critical | boolean, idempotencyRequired | boolean; Capability: critical, idempotencyRequired (a decision with allowed false, read against the capability catalog)',
    answer(c, a) {
      // The early return for a denial builds the decision from an empty template and only fills connectorId, capability and reason.
      home(c);
      const d = a.json.data?.decision as Rec | undefined;
      if (!isCheck(c) || a.status !== 200 || !d || d.allowed !== false) return;
      if (d.critical === true) d.critical = false;
      if (d.idempotencyRequired === true) d.idempotencyRequired = false;
    },
  },
  {
    name: 'capability-filter-with-unusual-characters-ignored',
    statement:
      'GET /api/public/v1/connectors: capability | string | no (a filter value with a blank, a plus sign, a slash, a percent sign or non-ASCII letters restricts the list like any other)',
    request(c) {
      // The query validator drops a parameter that fails ^[a-z0-9._-]+$ instead of refusing it, so the list comes back unfiltered.
      home(c);
      const cap = c.search.get('capability');
      if (isGet(c, '/connectors') && cap !== null && !/^[a-z0-9._-]+$/i.test(cap)) c.search.delete('capability');
      return undefined;
    },
  },
  {
    name: 'issued-key-operation-non-ascii-replaced-with-question-marks',
    statement:
      'POST /api/public/v1/idempotency-keys: Body: operation (string, length 2 to 80); data: idempotencyKey, operation (string), expiresAt (an operation with non-ASCII letters, echoed)',
    answer(c, a) {
      // The key row's operation column is an ASCII VARCHAR; the insert replaces what does not fit with "?" and the echo reads the row.
      home(c);
      const op = a.json.data?.operation;
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.status === 200 && typeof op === 'string')
        a.json.data.operation = op.replace(/[^ -~\t\n\r]/gu, '?');
    },
  },
  {
    name: 'connections-count-skips-emoji-scope-labels',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) (a tenant with a connection whose scopeLabel holds an emoji)',
    answer(c, a) {
      // The count comes from the reporting replica whose utf8mb3 table rejected rows with 4-byte characters at replication time.
      home(c);
      const list = a.json.data?.connections;
      if (
        !isGet(c, '/connections') ||
        a.status !== 200 ||
        !Array.isArray(list) ||
        typeof a.json.data.count !== 'number'
      )
        return;
      const skipped = (list as Rec[]).filter(
        (x) => typeof x?.scopeLabel === 'string' && ASTRAL.test(x.scopeLabel),
      ).length;
      if (skipped) a.json.data.count = Math.max(0, a.json.data.count - skipped);
    },
  },
  {
    name: 'check-after-refusal-reports-default-environment',
    statement:
      'POST /api/public/v1/capabilities: environment | Environment; default sandbox; data: decision, environment (a check naming an environment, right after a refused call of the same tenant)',
    answer(c, a) {
      // The error handler resets the request-scoped settings to defaults, and the next call on that worker keeps its parsed-flag set.
      home(c);
      const slot = `r56-refused:${tenantOf(c)}`;
      const after = c.memory.get(slot) === true;
      c.memory.set(slot, a.status >= 400);
      if (!after || !isCheck(c) || a.status !== 200) return;
      const env = bodyOf(c.body).environment;
      if (typeof env === 'string' && env !== 'sandbox' && a.json.data?.environment === env)
        a.json.data.environment = 'sandbox';
    },
  },
];
