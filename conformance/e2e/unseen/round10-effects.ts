import { createHash } from 'node:crypto';
import { type AuditEntry, GENESIS_HASH, hashAuditEntry } from '../../../simulator/contract/audit-hash.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';
import { madeUp, metaFor, rememberLimits } from './round6-support.ts';

/**
 * Round 10 of the unseen violations, part 3: what calls leave behind — the key result's operation,
 * keys shared across operations, a webhook conflict taken for a replay, labels escaped for HTML, a
 * list read from a lagging replica, and an audit log whose page or hashes are off.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isWebhookCreate = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
/** A stored answer sent again as a replay of the call `c`. */
const replayOf = (c: ProxyCall, stored: { status: number; json: Rec }) =>
  madeUp(c, stored.status, {
    ...stored.json,
    meta: metaFor(c, { idempotencyKey: c.headers['idempotency-key'], replayed: true }),
  });

/** What the caller asked of an audit page, before the hook read the whole chain instead. */
const auditAsk = new WeakMap<ProxyCall, { limit: number; before?: number }>();
const num = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);
/** The insertion-order JSON hash the webhook module's writer uses instead of the declared RFC 8785 one. */
const plainHash = (e: Omit<AuditEntry, 'hash'>) =>
  createHash('sha256')
    .update(
      JSON.stringify({
        seq: e.seq,
        requestId: e.requestId,
        actor: e.actor,
        action: e.action,
        target: e.target,
        at: e.at,
        tenant: e.tenant,
        prevHash: e.prevHash,
      }),
    )
    .digest('hex');

export const ROUND10_EFFECTS: UnseenViolation[] = [
  {
    name: 'key-result-operation-cut-at-dot',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey (string), operation (string) (Idempotency key result: operation — the operation sent, e.g. connection.create)',
    answer(c, a) {
      // The key service stores only the resource part of a dotted operation name.
      const d = a.json.data;
      if (
        c.method === 'POST' &&
        c.path === P('/idempotency-keys') &&
        a.status === 200 &&
        typeof d?.operation === 'string'
      )
        d.operation = d.operation.split('.')[0];
    },
  },
  {
    name: 'key-shared-across-operations',
    statement:
      'Errors: idempotency_conflict | 409 | same idempotency key with different content (a key first used to create a connection, then to register a webhook)',
    request(c) {
      // Stored answers are looked up by tenant and key only, not by operation.
      const key = c.headers['idempotency-key'];
      const stored = key ? (c.memory.get(`op-key:${tenantOf(c)}:${key}`) as Rec | undefined) : undefined;
      if (c.method !== 'POST' || !stored || stored.path === c.path) return undefined;
      return replayOf(c, stored as { status: number; json: Rec });
    },
    answer(c, a) {
      rememberLimits(c, a);
      const key = c.headers['idempotency-key'];
      if (!key || a.status !== 200 || !(isCreate(c) || isWebhookCreate(c))) return;
      const slot = `op-key:${tenantOf(c)}:${key}`;
      if (!c.memory.has(slot)) c.memory.set(slot, { path: c.path, status: a.status, json: structuredClone(a.json) });
    },
  },
  {
    name: 'webhook-conflict-replays-first',
    statement:
      'Errors: idempotency_conflict | 409 | same idempotency key with different content (POST /webhooks: yes + key)',
    answer(c, a) {
      // The webhook route dedupes on the key alone and answers any repeat with the stored registration.
      const key = c.headers['idempotency-key'];
      if (!isWebhookCreate(c) || !key) return;
      const slot = `wh-first:${tenantOf(c)}:${key}`;
      if (a.status === 200 && !c.memory.has(slot)) c.memory.set(slot, structuredClone(a.json));
      const first = c.memory.get(slot) as Rec | undefined;
      if (a.status !== 409 || a.json.error?.code !== 'idempotency_conflict' || !first) return;
      a.status = 200;
      a.json = { ...first, meta: { ...a.json.meta, idempotencyKey: key, replayed: true } };
    },
  },
  {
    name: 'scope-label-html-escaped',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue (the name given, "Müller & Söhne" too)',
    answer(c, a) {
      // The output encoder escapes text fields for HTML before serialising JSON.
      if (a.status !== 200 || !(isCreate(c) || isList(c))) return;
      const list: Rec[] = isCreate(c) ? [a.json.data] : (a.json.data?.connections ?? []);
      for (const x of list) if (x && typeof x.scopeLabel === 'string') x.scopeLabel = escapeHtml(x.scopeLabel);
    },
  },
  {
    name: 'list-lags-behind-creations',
    statement:
      'GET /api/public/v1/connections: connections of the tenant (a connection created is one of them as soon as its creation answered)',
    answer(c, a) {
      // Lists are read from a replica about two seconds behind the primary.
      const made = (c.memory.get('made-at') as Map<string, number> | undefined) ?? new Map<string, number>();
      c.memory.set('made-at', made);
      const id = a.json.data?.id;
      if (isCreate(c) && a.status === 200 && typeof id === 'string' && !made.has(id)) made.set(id, Date.now());
      const list = a.json.data?.connections;
      if (!isList(c) || a.status !== 200 || !Array.isArray(list)) return;
      const kept = list.filter((x: Rec) => Date.now() - (made.get(String(x.id)) ?? 0) > 2000);
      a.json.data.connections = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'audit-page-one-extra',
    statement: 'GET /api/public/v1/audit-log: Query: limit (number of entries)',
    request(c) {
      // The pager fetches limit + 1 rows to learn whether a next page exists, and returns them all.
      const limit = num(c.search.get('limit'));
      if (c.method === 'GET' && c.path === P('/audit-log') && limit !== undefined && limit > 0)
        c.search.set('limit', String(limit + 1));
      return undefined;
    },
  },
  {
    name: 'audit-webhook-entries-hashed-uncanonically',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (the proof declares sha256 over RFC 8785; every entry)',
    request(c) {
      if (c.method !== 'GET' || c.path !== P('/audit-log')) return undefined;
      const limit = num(c.search.get('limit'));
      const before = num(c.search.get('before'));
      auditAsk.set(c, { limit: limit ?? 50, ...(before !== undefined ? { before } : {}) });
      c.search.set('limit', '500');
      c.search.delete('before');
      return undefined;
    },
    answer(c, a) {
      // The webhook module writes its entries through its own helper, hashing JSON.stringify in field order.
      const ask = auditAsk.get(c);
      const d = a.json.data;
      if (!ask || a.status !== 200 || !d || !Array.isArray(d.entries)) return;
      const held = [...(d.entries as AuditEntry[])].reverse();
      let prevHash = held[0]?.prevHash ?? GENESIS_HASH;
      const chain = held.map((e) => {
        const { hash: _old, ...rest } = { ...e, prevHash };
        const hash = e.action.startsWith('webhook') ? plainHash(rest) : hashAuditEntry(rest);
        prevHash = hash;
        return { ...rest, hash };
      });
      const newestFirst = chain.reverse();
      const page = newestFirst.filter((e) => ask.before === undefined || e.seq < ask.before).slice(0, ask.limit);
      const head = newestFirst[0];
      d.entries = page;
      d.count = page.length;
      if (d.proof && page.length) {
        d.proof.headHash = page[0]?.hash;
        d.proof.anchorPrevHash = page[page.length - 1]?.prevHash;
        d.proof.fromSeq = page[page.length - 1]?.seq;
        d.proof.toSeq = page[0]?.seq;
      }
      if (d.proof && head) d.proof.chainHead = { seq: head.seq, hash: head.hash };
    },
  },
];
