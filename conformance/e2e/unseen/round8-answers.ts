import type { AuditEntry } from '../../../simulator/contract/audit-hash.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';
import { bodyOf, failure, rememberLimits } from './round6-support.ts';
import { auditKeptAs, requestIdOf } from './round8-support.ts';

/**
 * Round 8 of the unseen violations, part 4: answers right in type and wrong in meaning, or right on
 * one endpoint and wrong across two — a replay recorded as a second creation, changes made at the
 * alternate address missing from the audit log, a filtered count that counts the catalog, a
 * provider's name given as providerId, a listed createdAt that follows updates, a label measured in
 * UTF-16 units, and refusals of the key endpoint sent with status 200.
 */
type Rec = Record<string, unknown>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isRead = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);

export const ROUND8_ANSWERS: UnseenViolation[] = [
  {
    name: 'replay-audited-again',
    statement:
      'Authentication: Idempotency-Key | on modifying calls: key against double effects; GET /audit-log: traceable changes of the tenant (a replay changes nothing)',
    ...(() => {
      // The audit writer hooks every 200 answer of POST /connections, replays included.
      const kept = auditKeptAs((c, chain) => {
        const replays = (c.memory.get(`replays:${tenantOf(c)}`) as Rec[] | undefined) ?? [];
        const added = replays.flatMap((r) => {
          const original = chain.find((e) => e.target === r.target);
          return original ? [{ ...original, requestId: String(r.requestId), at: String(r.at) }] : [];
        });
        return [...chain, ...added].sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : x.seq - y.seq));
      });
      return {
        request: kept.request,
        answer(c: ProxyCall, a: ProxyAnswer) {
          kept.answer?.(c, a);
          const id = a.json.data?.id;
          if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true || typeof id !== 'string') return;
          const slot = `replays:${tenantOf(c)}`;
          const list = (c.memory.get(slot) as Rec[] | undefined) ?? [];
          c.memory.set(slot, [...list, { target: `connection:${id}`, requestId: requestIdOf(a), at: a.json.meta.at }]);
        },
      };
    })(),
  },
  {
    name: 'audit-misses-alt-changes',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant (changes made under {alt_base_url}, "the same interface", too)',
    ...(() => {
      // The alternate region writes its audit entries to its own store, which the log never reads.
      const kept = auditKeptAs((c, chain: AuditEntry[]) => {
        const alt = (c.memory.get('alt-writes') as Set<string> | undefined) ?? new Set<string>();
        return chain.filter((e) => !alt.has(e.requestId));
      });
      return {
        request: kept.request,
        answer(c: ProxyCall, a: ProxyAnswer) {
          kept.answer?.(c, a);
          if (c.base !== 'alt' || c.method === 'GET' || a.status !== 200) return;
          const alt = (c.memory.get('alt-writes') as Set<string> | undefined) ?? new Set<string>();
          c.memory.set('alt-writes', alt.add(requestIdOf(a)));
        },
      };
    })(),
  },
  {
    name: 'filtered-count-is-catalog-total',
    statement:
      'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) — the count of the list answered',
    answer(c, a) {
      // The count comes from a second query that was not given the providerId condition.
      const d = a.json.data;
      if (!isRead(c, '/connectors') || a.status !== 200 || !d || !Array.isArray(d.connectors)) return;
      const filtered = ['providerId', 'capability', 'category'].filter((k) => c.search.has(k));
      if (!filtered.length) c.memory.set('connectors-total', d.count);
      const total = c.memory.get('connectors-total');
      if (filtered.length === 1 && filtered[0] === 'providerId' && typeof total === 'number') d.count = total;
    },
  },
  {
    name: 'connector-provider-id-is-name',
    statement: "Connector: providerId | string — the provider's id (GET /providers: Provider.id), not its name",
    answer(c, a) {
      // The connector view joins the provider and maps its display name into providerId.
      const d = a.json.data;
      if (a.status !== 200 || !d) return;
      if (isRead(c, '/providers') && Array.isArray(d.providers))
        for (const p of d.providers as Rec[]) c.memory.set(`provider-name:${String(p.id)}`, p.name);
      if (!isRead(c, '/connectors') || !Array.isArray(d.connectors)) return;
      for (const x of d.connectors as Rec[]) {
        const name = c.memory.get(`provider-name:${String(x.providerId)}`);
        if (typeof name === 'string') x.providerId = name;
      }
    },
  },
  {
    name: 'listed-created-at-follows-updates',
    statement:
      'Connection: createdAt | string, date-time — the time of creation, in GET /connections too (not the time of the latest change)',
    answer(c, a) {
      // The list query selects updated_at AS created_at (a copy-paste from the "recently changed" view).
      const list = a.json.data?.connections as Rec[] | undefined;
      if (!isRead(c, '/connections') || a.status !== 200 || !Array.isArray(list)) return;
      for (const x of list) if (typeof x.updatedAt === 'string') x.createdAt = x.updatedAt;
    },
  },
  {
    name: 'scope-label-utf16-length',
    statement:
      'Limits: scopeLabel | length 2 to 120 (characters: a venue name of 120 characters with an emoji in it is allowed)',
    request(c) {
      // The validator uses JavaScript's String.length, which counts a character outside the BMP twice.
      const label = bodyOf(c)?.scopeLabel;
      if (!isCreate(c) || typeof label !== 'string' || label.length <= 120 || [...label].length > 120) return undefined;
      return failure(c, 400, 'invalid_request', 'scopeLabel must be 2 to 120 characters long.');
    },
    answer: rememberLimits,
  },
  {
    name: 'key-endpoint-refusals-answered-200',
    statement:
      'Endpoints: all authenticated endpoints ... may answer with the statuses 400, 401, ... each with the failure envelope (POST /idempotency-keys refusals too: not 200)',
    answer(c, a) {
      // The key endpoint was added behind a wrapper that always answers 200 and lets ok tell success from failure.
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.status >= 400 && a.json.ok === false)
        a.status = 200;
    },
  },
];
