import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { altSecond, isSecond, type Rec } from './round44-common.ts';

/** Round 50, part 1: the key-issue route, the check's decision per environment, replays, and rare error answers. */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isKeyIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const decisionOf = (d: unknown) => (d && typeof d === 'object' ? ((d as Rec).decision as Rec | undefined) : undefined);

export const ROUND50_ANSWERS: UnseenViolation[] = [
  {
    name: 'key-issue-operation-echo-hardcoded-for-other-operations',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey, operation (string), expiresAt (a key issued for an operation other than connection.create)',
    answer(c, a) {
      // The key service was written for connection creation only and its response DTO has the operation as a constant.
      home(c);
      const op = bodyOf(c.body).operation;
      if (isKeyIssue(c) && a.status === 200 && a.json.data && typeof op === 'string' && op !== 'connection.create')
        a.json.data.operation = 'connection.create';
    },
  },
  {
    name: 'alt-second-tenant-key-issue-operation-null',
    statement: 'Idempotency key result: operation | string (a key issued for the second tenant under {alt_base_url})',
    answer(c, a) {
      // The alternate region reads the operation from a per-tenant column that was never back-filled for later tenants.
      const both = altSecond(c);
      if (both && isKeyIssue(c) && a.status === 200 && a.json.data) a.json.data.operation = null;
    },
  },
  {
    name: 'non-sandbox-denied-decision-reason-blank',
    statement:
      'What the service does: A capability check returns a decision (allowed or not) with a reason (a denied check outside the sandbox)',
    answer(c, a) {
      // The policy engine outside the sandbox returns no message for denials, and the mapper pads a missing one with a blank.
      home(c);
      const d = decisionOf(a.json.data);
      const env = a.json.data?.environment;
      if (isCheck(c) && d && d.allowed === false && env !== 'sandbox') d.reason = ' ';
    },
  },
  {
    name: 'second-tenant-production-decision-critical-inverted',
    statement:
      'CapabilityDecision: critical | boolean (Capability catalog: critical) (a production check for the second tenant)',
    answer(c, a) {
      // The second tenant's production policy overlay stores "non-critical" flags, and the reader forgets to negate them.
      const second = isSecond(c);
      const d = decisionOf(a.json.data);
      if (second && isCheck(c) && a.json.data?.environment === 'production' && typeof d?.critical === 'boolean')
        d.critical = !d.critical;
    },
  },
  {
    name: 'alt-not-found-hint-names-shard-host',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details (a 404 under {alt_base_url})',
    answer(c, a) {
      // The alternate region's data layer appends where it looked, for its own operators, to every miss.
      home(c);
      if (c.base === 'alt' && a.status === 404 && a.json.error)
        a.json.error.hint = 'Looked up on shard pg-conn-07.eu-central.internal:5432 (table connections_v3).';
    },
  },
  {
    name: 'alt-idempotency-conflict-detail-names-cache-key',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details (an idempotency_conflict under {alt_base_url})',
    answer(c, a) {
      // The alternate region's idempotency store reports its cache key and node in the conflict message.
      home(c);
      const key = c.headers['idempotency-key'] ?? '';
      if (c.base === 'alt' && a.json.error?.code === 'idempotency_conflict')
        a.json.error.detail = `Stored fingerprint differs for idem:${c.headers['x-service-tenant'] ?? ''}:${key} on redis-idem-03.internal:6379.`;
    },
  },
  {
    name: 'replay-capabilities-lack-idempotency-flag',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again; Connection: capabilities each entry: capability, critical, idempotencyRequired (a replay)',
    answer(c, a) {
      // The replay cache keeps a slimmed copy of the connection and drops flags it thinks are derivable.
      home(c);
      if (!isCreate(c) || a.json.meta?.replayed !== true) return;
      for (const e of (a.json.data?.capabilities ?? []) as Rec[])
        if (e && typeof e === 'object') delete e.idempotencyRequired;
    },
  },
  {
    name: 'development-decision-allowed-as-string',
    statement: 'CapabilityDecision: allowed | boolean (a check in the development environment)',
    answer(c, a) {
      // The development policy stub returns its verdict from an environment variable, as text.
      home(c);
      const d = decisionOf(a.json.data);
      if (isCheck(c) && a.json.data?.environment === 'development' && typeof d?.allowed === 'boolean')
        d.allowed = String(d.allowed);
    },
  },
];
