import { randomBytes } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 15 of the unseen violations, part 2: answers wrong under one condition — labels with characters
 * beyond the Basic Multilingual Plane stored lossily, a denied check answered as an error, a missing-key
 * refusal reporting a key nobody sent, a byte order mark before one JSON answer, the fifth connection
 * given the first one's id, a catalog read served from a shared cache with its meta, a conflict showing
 * the stored body of the first call, and key issue refusing operation names it does not know.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
/** Key issues whose operation the registry did not know. */
const unknownOps = new WeakSet<ProxyCall>();
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
/** Every connection record an answer carries: a creation's data or a list's entries. */
const connectionsOf = (c: ProxyCall, a: ProxyAnswer): Rec[] => {
  if (!ok(a)) return [];
  if (isCreate(c) && a.json.data && typeof a.json.data === 'object') return [a.json.data as Rec];
  if (isList(c) && Array.isArray(a.json.data?.connections)) return a.json.data.connections as Rec[];
  return [];
};

export const ROUND15_ANSWERS: UnseenViolation[] = [
  {
    name: 'scope-label-astral-characters-replaced',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue (POST /connections: data: the Connection — the label sent)',
    answer(c, a) {
      // The label column is MySQL "utf8" (three bytes at most), so emoji and other 4-byte characters become U+FFFD.
      for (const x of connectionsOf(c, a))
        if (typeof x.scopeLabel === 'string') x.scopeLabel = x.scopeLabel.replace(/[\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
    },
  },
  {
    name: 'denied-check-answered-409',
    statement:
      'What the service does: A capability check returns a decision (allowed or not) with a reason. (POST /api/public/v1/capabilities: data: decision (CapabilityDecision))',
    answer(c, a) {
      // The check shares the booking guard, which throws capability_denied instead of returning the negative decision.
      const d = a.json.data?.decision as Rec | undefined;
      if (c.method !== 'POST' || c.path !== P('/capabilities') || !ok(a) || d?.allowed !== false) return;
      refuse(
        a,
        409,
        'capability_denied',
        'The capability is not released for this connection.',
        String(d.reason ?? ''),
      );
    },
  },
  {
    name: 'missing-key-refusal-reports-generated-key',
    statement:
      'Meta: idempotencyKey | string | no | the key used for the call (A missing key yields idempotency_required)',
    answer(_c, a) {
      // The key middleware mints a fallback key for logging before it refuses, and the error writer copies it to meta.
      if (a.status === 428 && a.json.meta && typeof a.json.meta === 'object')
        a.json.meta.idempotencyKey = `auto-${randomBytes(12).toString('hex')}`;
    },
  },
  {
    name: 'capability-catalog-with-byte-order-mark',
    statement:
      'Success envelope (every JSON success response) — JSON text (RFC 8259: implementations MUST NOT add a byte order mark to a networked JSON text)',
    answer(c, a) {
      // The catalog is served from a file written by a Windows tool, which prefixes UTF-8 with a BOM.
      if (c.method === 'GET' && c.path === P('/capabilities') && ok(a)) a.raw = `\uFEFF${JSON.stringify(a.json)}`;
    },
  },
  {
    name: 'fifth-connection-reuses-first-id',
    statement:
      'Connection: id | string — the identifier of one connection (Errors: not_found: wrong identifier; GET /connections lists each connection)',
    answer(c, a) {
      // Ids come from a per-process sequence cached per tenant; an eviction after four creations restarts it.
      const tenant = tenantOf(c);
      const map = (c.memory.get(`r15-ids:${tenant}`) as Map<string, string> | undefined) ?? new Map<string, string>();
      c.memory.set(`r15-ids:${tenant}`, map);
      if (isCreate(c) && ok(a) && a.json.meta?.replayed !== true && typeof a.json.data?.id === 'string') {
        const made = (c.memory.get(`r15-made:${tenant}`) as string[] | undefined) ?? [];
        c.memory.set(`r15-made:${tenant}`, made);
        const first = made[0];
        if (!map.has(a.json.data.id)) made.push(a.json.data.id);
        if (made.length === 5 && first) map.set(a.json.data.id, first);
      }
      for (const x of connectionsOf(c, a)) {
        const alias = typeof x.id === 'string' ? map.get(x.id) : undefined;
        if (alias) x.id = alias;
      }
    },
  },
  {
    name: 'provider-list-shared-cache-with-meta',
    statement:
      'Meta: requestId | string | yes | identifier of this call, quoted for support queries (GET /api/public/v1/providers)',
    request(c) {
      // A CDN rule caches GET /providers for 20 s by path and query only, headers and envelope included.
      if (c.method !== 'GET' || c.path !== P('/providers')) return undefined;
      const hit = c.memory.get(`r15-cache:${c.search.toString()}`) as { at: number; a: ProxyAnswer } | undefined;
      if (!hit || Date.now() - hit.at > 20_000) return undefined;
      return structuredClone(hit.a);
    },
    answer(c, a) {
      if (c.method === 'GET' && c.path === P('/providers') && ok(a))
        c.memory.set(`r15-cache:${c.search.toString()}`, { at: Date.now(), a: structuredClone(a) });
    },
  },
  {
    name: 'conflict-detail-shows-stored-body',
    statement:
      'Errors: Error responses … contain the request identifier (meta.requestId) but no internal details … (no tokens or raw data are to be sent along)',
    request(c) {
      // The conflict handler quotes the stored request to help find the difference.
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || c.memory.has(`r15-body:${tenantOf(c)}:${key}`)) return undefined;
      c.memory.set(`r15-body:${tenantOf(c)}:${key}`, c.body);
      return undefined;
    },
    answer(c, a) {
      const key = c.headers['idempotency-key'];
      const stored = c.memory.get(`r15-body:${tenantOf(c)}:${key}`);
      if (!isCreate(c) || a.status !== 409 || a.json.error?.code !== 'idempotency_conflict' || stored === undefined)
        return;
      a.json.error.detail = `Key ${key} was first used with ${JSON.stringify(stored)}.`;
    },
  },
  {
    name: 'key-issue-refuses-unknown-operation',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80; short name of the operation, e.g. connection.create)',
    request(c) {
      // The key service validates operation against its registry of operation names instead of the length rule.
      const known = [
        'connection.create',
        'connections.create',
        'webhook.create',
        'webhooks.create',
        'webhook.redeliver',
      ];
      const op = (c.body as Rec | undefined)?.operation;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || typeof op !== 'string' || known.includes(op))
        return undefined;
      // Sent on as a one-character operation, so the deployment's own 400 (with its meta and headers) comes back.
      c.body = { ...(c.body as Rec), operation: 'x' };
      unknownOps.add(c);
      return undefined;
    },
    answer(c, a) {
      if (unknownOps.has(c) && a.status === 400 && a.json.error)
        a.json.error.detail = 'body field operation must name a known operation (connection.create, webhook.create).';
    },
  },
];
