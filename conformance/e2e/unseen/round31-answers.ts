import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 31 of the unseen violations, part 1: answers — audit entries edited after they were hashed (on
 * a replay, for webhook targets), issued keys cached per operation, a replayed connection listed twice,
 * creations charged one rate-limit unit per capability, the audit proof's range reversed, refusals under the alternate address naming the upstream
 * host, listed creation times rounded up to the next second, and pilot next steps quoting the token.
 */
type Rec = Record<string, any>;
const isAudit = (c: { method: string; path: string }) => c.method === 'GET' && c.path === P('/audit-log');
const entriesOf = (a: { status: number; json: Rec }) =>
  a.status === 200 && Array.isArray(a.json.data?.entries) ? (a.json.data.entries as Rec[]) : [];

export const ROUND31_ANSWERS: UnseenViolation[] = [
  {
    name: 'audit-entry-request-id-updated-by-replay',
    statement:
      'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity (after a replay)',
    answer(c, a) {
      // The audit row stores "last request that touched it": a replay overwrites requestId in place,
      // after the row's hash was computed, so the proof no longer binds the entry that is shown.
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed === true && a.json.data?.id) {
        c.memory.set(`audit-replay:connection:${String(a.json.data.id)}`, String(a.json.meta.requestId));
        return;
      }
      if (!isAudit(c)) return;
      for (const e of entriesOf(a)) {
        const later = c.memory.get(`audit-replay:${String(e.target)}`);
        if (typeof later === 'string') e.requestId = later;
      }
    },
  },
  {
    name: 'audit-webhook-target-rewritten-after-hashing',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (webhook entries)',
    answer(c, a) {
      // A presenter shortens webhook targets to the bare receiver id for display; the hashes were made
      // over the stored "webhook:<id>" form, so the shown entries are not the hashed ones.
      if (!isAudit(c)) return;
      for (const e of entriesOf(a))
        if (typeof e.target === 'string' && e.target.startsWith('webhook:')) e.target = e.target.slice(8);
    },
  },
  {
    name: 'key-issue-cached-per-operation',
    statement:
      'POST /api/public/v1/idempotency-keys: generate an idempotency key (Errors: use a new key for each new operation)',
    answer(c, a) {
      // A read-through cache keyed by tenant and operation name hands out the first key again.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200 || !a.json.data) return;
      const slot = `issued:${c.headers['x-service-tenant'] ?? ''}:${String(a.json.data.operation)}`;
      const first = c.memory.get(slot) as Rec | undefined;
      if (!first) return void c.memory.set(slot, { ...a.json.data });
      a.json.data.idempotencyKey = first.idempotencyKey;
      a.json.data.expiresAt = first.expiresAt;
    },
  },
  {
    name: 'replayed-connection-listed-twice',
    statement:
      'GET /api/public/v1/connections: data: tenant, count, connections (array of Connection) — the same key returns the same response again (no second connection)',
    answer(c, a) {
      // The replay path appends the stored connection to the tenant's list cache again; count follows.
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed === true && a.json.data?.id) {
        c.memory.set(`listed-twice:${String(a.json.data.id)}`, true);
        return;
      }
      if (c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      const list = a.json.data?.connections as Rec[] | undefined;
      if (!Array.isArray(list)) return;
      const doubled = list.filter((x) => c.memory.has(`listed-twice:${String(x.id)}`));
      if (!doubled.length) return;
      list.push(...doubled.map((x) => ({ ...x })));
      a.json.data.count = list.length;
    },
  },
  {
    name: 'creation-counted-per-capability',
    statement: 'Limits: Response headers: X-RateLimit-Remaining (calls left in the window) — a creation is one call',
    answer(c, a) {
      // A cost-based limiter charges a creation one unit per capability; the header reports units.
      const tenant = c.headers['x-service-tenant'] ?? '';
      const slot = `units:${tenant}`;
      const caps = (c.body as Rec | undefined)?.capabilities;
      if (isCreate(c) && a.status === 200 && !a.json.meta?.replayed && Array.isArray(caps) && caps.length > 1)
        c.memory.set(slot, ((c.memory.get(slot) as number | undefined) ?? 0) + caps.length - 1);
      const extra = (c.memory.get(slot) as number | undefined) ?? 0;
      const left = Number(a.headers['x-ratelimit-remaining']);
      if (extra && a.headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(left))
        a.headers['x-ratelimit-remaining'] = String(Math.max(0, left - extra));
    },
  },
  {
    name: 'audit-proof-range-reversed',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (the proof names the range it covers)',
    answer(c, a) {
      // The page is read newest first and the proof takes its bounds from the first and last row read.
      const proof = isAudit(c) && a.status === 200 ? (a.json.data?.proof as Rec | undefined) : undefined;
      if (!proof || typeof proof.fromSeq !== 'number' || proof.fromSeq === proof.toSeq) return;
      [proof.fromSeq, proof.toSeq] = [proof.toSeq, proof.fromSeq];
    },
  },
  {
    name: 'alt-refusal-detail-names-upstream-host',
    statement:
      'Errors: Error responses … contain the request identifier (meta.requestId) but no internal details (under {alt_base_url})',
    answer(c, a) {
      // The alternate domain's edge appends the upstream it forwarded to, a cluster-internal address.
      if (c.base !== 'alt' || a.status < 400 || !a.json.error) return;
      a.json.error.detail = `${a.json.error.detail ? `${String(a.json.error.detail)} ` : ''}(upstream ncs-api.internal.svc.cluster.local:8443 via 10.42.7.19:8443)`;
    },
  },
  {
    name: 'listed-created-at-rounded-up-to-second',
    statement:
      'Connection: createdAt — string, date-time (GET /connections lists the connection as created, not a later instant)',
    answer(c, a) {
      // The list reads from a warehouse column of whole seconds, filled with CEIL of the epoch time.
      if (c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      for (const x of (a.json.data?.connections ?? []) as Rec[]) {
        const t = Date.parse(String(x.createdAt));
        if (Number.isFinite(t)) x.createdAt = new Date(Math.ceil((t + 1) / 1000) * 1000).toISOString();
      }
    },
  },
  {
    name: 'pilot-next-step-quotes-access-token',
    statement:
      "What the service does: Access credentials stay in the partner's backend (Errors: no tokens or raw data are to be sent along)",
    answer(c, a) {
      // The pilot onboarding text is a template that includes "the access you used", meant for the log.
      if (!isCreate(c) || a.status !== 200 || a.json.data?.environment !== 'pilot') return;
      const token = (c.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      home(c);
      a.json.data.nextStep = `${String(a.json.data.nextStep)} Pilot access registered: ${token}.`;
    },
  },
];
