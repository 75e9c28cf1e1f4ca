import { nextStepFor } from '../../../simulator/services/connection-lifecycle.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';
import { failure, madeUp, metaFor, rememberLimits, sortedText } from './round6-support.ts';

/**
 * Round 6 of the unseen violations, part 3: idempotency keys stored, compared and scoped wrong — a
 * key cut at its colon, a key one character short let through, keys shared between tenants, content
 * compared as bytes, two calls at once — and refusals and audit reads that say more than they may.
 */
const isModifying = (c: ProxyCall) => c.method === 'POST' || c.method === 'DELETE';
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
/** The key a call was sent with, where a hook sent another one on. */
const sentKey = new WeakMap<ProxyCall, string>();
const restoreKey = (c: ProxyCall, a: ProxyAnswer) => {
  const key = sentKey.get(c);
  if (key && a.json.meta && a.json.meta.idempotencyKey !== undefined) a.json.meta.idempotencyKey = key;
};
/** The simulator activates a pending connection 2 s after its creation (its default activation delay). */
const ACTIVATED_AFTER_MS = 2000;
const STACK =
  '\n    at validateBody (/srv/ncs/dist/middleware/validate.js:88:17)\n    at Pipeline.run (/srv/ncs/dist/core/pipeline.js:41:9)';

export const ROUND6_EFFECTS: UnseenViolation[] = [
  {
    name: 'key-cut-at-colon',
    statement: 'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (the colon is part of the key)',
    request(c) {
      // The store's own keys are "tenant:key" and are split at the first colon again when looked up.
      const key = c.headers['idempotency-key'];
      if (!isModifying(c) || !key?.includes(':')) return undefined;
      const head = key.slice(0, key.indexOf(':'));
      sentKey.set(c, key);
      c.headers['idempotency-key'] = head.length >= 8 ? head : head.padEnd(8, '0');
      return undefined;
    },
    answer: restoreKey,
  },
  {
    name: 'seven-character-key-accepted',
    statement: 'Limits: Idempotency-Key: 8 to 128 characters (seven are too few)',
    request(c) {
      // The minimum is checked with > 6 instead of >= 8 … and stored padded.
      const key = c.headers['idempotency-key'];
      if (!isModifying(c) || !key || !/^[A-Za-z0-9._:-]{7}$/.test(key)) return undefined;
      sentKey.set(c, key);
      c.headers['idempotency-key'] = `${key}0`;
      return undefined;
    },
    answer: restoreKey,
  },
  {
    name: 'key-replays-across-tenants',
    statement:
      'GET /connections: connections of the tenant; Errors: not_found — entry belongs to another tenant (a key is looked up without the tenant)',
    answer(c, a) {
      // The key store is global: the first tenant's answer is kept under the key alone.
      rememberLimits(c, a);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200 || a.json.meta?.replayed) return;
      if (!c.memory.has(`global:${key}`))
        c.memory.set(`global:${key}`, {
          tenant: tenantOf(c),
          content: sortedText(c.body),
          json: structuredClone(a.json),
        });
    },
    request(c) {
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const first = c.memory.get(`global:${key}`) as
        | { tenant: string; content: string; json: ProxyAnswer['json'] }
        | undefined;
      if (!first || first.tenant === tenantOf(c) || first.content !== sortedText(c.body)) return undefined;
      const json = structuredClone(first.json);
      json.meta = metaFor(c, { idempotencyKey: key, replayed: true });
      return madeUp(c, 200, json);
    },
  },
  {
    name: 'content-compared-as-bytes',
    statement:
      'POST /connections: the same key with the same content returns the same response again (content, not field order)',
    request(c) {
      // The stored fingerprint is the body text as received, so a client that orders its fields differently conflicts.
      const key = c.headers['idempotency-key'];
      if (!isModifying(c) || !key || c.body === undefined) return undefined;
      const slot = `bytes:${tenantOf(c)}:${c.path}:${key}`;
      const first = c.memory.get(slot) as string | undefined;
      const text = JSON.stringify(c.body);
      if (first === undefined) c.memory.set(slot, text);
      else if (first !== text && sortedText(JSON.parse(first)) === sortedText(c.body))
        return failure(c, 409, 'idempotency_conflict', 'The same idempotency key was used with different content.');
      return undefined;
    },
    answer: rememberLimits,
  },
  {
    name: 'concurrent-same-key-creates-twice',
    statement:
      'What the service does: modifying calls are repeat-safe through idempotency keys (two calls with one key at once too)',
    request(c) {
      // Check-then-insert without a lock: a second call with the key while the first runs is not seen as a repeat.
      const key = c.headers['idempotency-key'];
      if (!isModifying(c) || !key) return undefined;
      const slot = `flight:${tenantOf(c)}:${c.path}:${key}`;
      const n = Number(c.memory.get(slot) ?? 0);
      c.memory.set(slot, n + 1);
      if (n > 0) {
        sentKey.set(c, key);
        c.headers['idempotency-key'] = `${key.slice(0, 100)}.race${Date.now() % 100000}${n}`;
      }
      return undefined;
    },
    answer(c, a) {
      const key = sentKey.get(c) ?? c.headers['idempotency-key'];
      if (!isModifying(c) || !key) return;
      const slot = `flight:${tenantOf(c)}:${c.path}:${key}`;
      c.memory.set(slot, Math.max(0, Number(c.memory.get(slot) ?? 1) - 1));
      restoreKey(c, a);
    },
  },
  {
    name: 'replay-rereads-stored-row',
    statement:
      'POST /connections: sending the same key with the same content returns the same response again (not the connection re-read)',
    answer(c, a) {
      // The replay keeps only the connection's id and serialises the stored row again: the store keeps
      // capabilities sorted by name, and a state that has moved on since shows through.
      const d = a.json.data;
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true || typeof d?.id !== 'string') return;
      if (Array.isArray(d.capabilities))
        d.capabilities = [...d.capabilities].sort((x, y) => String(x?.capability).localeCompare(String(y?.capability)));
      if (d.state === 'pending' && Date.now() - Date.parse(String(d.createdAt)) > ACTIVATED_AFTER_MS)
        Object.assign(d, { state: 'active', nextStep: nextStepFor('active') });
    },
  },
  {
    name: 'audit-shows-other-tenants',
    statement: 'GET /audit-log: purpose: traceable changes of the tenant (that tenant only)',
    answer(c, a) {
      // The log query filters by access, not by tenant: every tenant of the access shows up in each.
      const d = a.json.data;
      if (c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200 || !Array.isArray(d?.entries)) return;
      const tenant = tenantOf(c);
      const seen = (c.memory.get('audit-tenants') as Map<string, unknown[]>) ?? new Map<string, unknown[]>();
      c.memory.set('audit-tenants', seen);
      seen.set(tenant, structuredClone(d.entries));
      const others = [...seen].filter(([t]) => t !== tenant).flatMap(([, e]) => e);
      if (!others.length) return;
      d.entries = [...d.entries, ...structuredClone(others)];
      if (typeof d.count === 'number') d.count = d.entries.length;
    },
  },
  {
    name: 'stack-trace-in-invalid-request',
    statement: 'Errors: error responses contain the request identifier (meta.requestId) but no internal details',
    answer(_c, a) {
      // The validator's exception is passed into detail whole, frames and file paths included.
      if (a.status === 400 && a.json.ok === false && a.json.error)
        a.json.error.detail = `${a.json.error.detail ?? 'ValidationError'}${STACK}`;
    },
  },
];
