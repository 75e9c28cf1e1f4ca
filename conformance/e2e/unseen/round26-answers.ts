import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 26 of the unseen violations, part 1: answers — a same-key creation racing the first answered
 * 500, production connections mirrored into the sandbox in the listing, an idempotency conflict
 * carrying the SQL of its lookup in a header, a session cookie holding the token on the alternate
 * address, the bearer token and a receiver's signing key written into the audit log, the presented
 * token echoed in the 401 challenge, replays written twice into one body, and `meta.replayed` sticking
 * to the next read after a replay.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200;
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const bearer = (c: ProxyCall) => (c.headers.authorization ?? '').replace(/^Bearer\s+/i, '');

export const ROUND26_ANSWERS: UnseenViolation[] = [
  {
    name: 'concurrent-same-key-loser-answered-internal',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true',
    request(c) {
      // The key row is inserted with a unique constraint before the work starts; a second request with
      // the same key that arrives while the first is still running hits the constraint, and the
      // unhandled error surfaces as 500 instead of waiting for (and replaying) the first answer.
      const key = keyOf(c);
      if (!isCreate(c) || !key) return undefined;
      const slot = `r26-inflight:${c.headers['x-service-tenant']}:${key}`;
      if (c.memory.get(slot) === true) {
        const limits = (c.memory.get('r26-limits') as Record<string, string> | undefined) ?? {};
        return {
          status: 500,
          headers: { 'content-type': 'application/json; charset=utf-8', ...limits },
          json: {
            ok: false,
            error: { code: 'internal', message: 'The service could not complete the call.' },
            meta: {
              requestId: `req_r26${Date.now().toString(36)}`,
              version: '2026-07-01',
              at: new Date().toISOString(),
            },
          },
        };
      }
      c.memory.set(slot, true);
      return undefined;
    },
    answer(c, a) {
      const limit = a.headers['x-ratelimit-limit'];
      const remaining = a.headers['x-ratelimit-remaining'];
      if (limit && remaining)
        c.memory.set('r26-limits', { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining });
      const key = keyOf(c);
      if (isCreate(c) && key) c.memory.delete(`r26-inflight:${c.headers['x-service-tenant']}:${key}`);
    },
  },
  {
    name: 'production-connection-mirrored-into-sandbox',
    statement:
      'What the service does: Production data must never be copied into the sandbox. The connection environment values are development, sandbox, pilot, production.',
    answer(c, a) {
      // A "practice copy" feature clones every production connection into the sandbox so partners can
      // rehearse on it; the clones show up in the tenant's listing.
      if (c.method !== 'GET' || c.path !== P('/connections') || !ok(a)) return;
      const list = a.json.data?.connections;
      if (!Array.isArray(list)) return;
      const copies = (list as Rec[])
        .filter((e) => e.environment === 'production')
        .map((e) => ({ ...e, id: `${e.id}-sbx`, environment: 'sandbox' }));
      if (!copies.length) return;
      list.push(...copies);
      if (typeof a.json.data.count === 'number') a.json.data.count += copies.length;
    },
  },
  {
    name: 'conflict-answer-carries-sql-debug-header',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details; ... (no tokens or raw data are to be sent along)',
    answer(c, a) {
      // A debug middleware left on in the release attaches the query that found the conflicting key.
      if (a.status !== 409 || a.json.error?.code !== 'idempotency_conflict') return;
      a.headers['x-debug-query'] =
        `SELECT fingerprint, response FROM idempotency_keys WHERE tenant_id = '${c.headers['x-service-tenant'] ?? ''}' AND key = '${keyOf(c) ?? ''}' FOR UPDATE; -- pg 10.4.7.21:5432`;
    },
  },
  {
    name: 'alt-sets-session-cookie-with-token',
    statement:
      "What the service does: The interface is called from servers only. Access credentials stay in the partner's backend and are never sent from a browser.",
    answer(c, a) {
      // The second address runs behind the portal's gateway, which turns every bearer call into a
      // browser session and hands the token back as a cookie.
      const token = bearer(c);
      if (c.base !== 'alt' || !token) return;
      a.headers['set-cookie'] = `ncs_session=${token}; Path=/; HttpOnly; SameSite=Lax`;
    },
  },
  {
    name: 'audit-actor-records-bearer-token',
    statement:
      'Errors / Rules for credentials: no tokens or raw data are to be sent along; credentials live in a protected store (GET /audit-log: traceable changes of the tenant)',
    answer(c, a) {
      // The audit writer records "who" as the raw Authorization value instead of the client's name; the
      // reader serves it as stored.
      if (!isAudit(c) || !ok(a) || !Array.isArray(a.json.data?.entries)) return;
      const token = bearer(c);
      if (!token) return;
      for (const e of a.json.data.entries as Rec[]) e.credential = `Bearer ${token}`;
    },
  },
  {
    name: 'audit-entry-carries-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once.',
    answer(c, a) {
      // The change record of a receiver's creation is the whole created row, signing key included.
      if (c.method === 'POST' && c.path === P('/webhooks') && ok(a) && a.json.data?.id) {
        const secret = a.json.data.signingSecret ?? a.json.data.signingKey;
        if (typeof secret === 'string') c.memory.set(`r26-secret:${a.json.data.id}`, secret);
        return;
      }
      if (!isAudit(c) || !ok(a) || !Array.isArray(a.json.data?.entries)) return;
      for (const e of a.json.data.entries as Rec[]) {
        const id = String(e.target ?? '').replace(/^webhook:/, '');
        const secret = c.memory.get(`r26-secret:${id}`) as string | undefined;
        if (secret) e.after = { id, signingSecret: secret };
      }
    },
  },
  {
    name: 'unauthorized-challenge-echoes-presented-token',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details; the identifier is all that support needs (no tokens or raw data are to be sent along).',
    answer(c, a) {
      // The RFC 6750 challenge is built with a "helpful" echo of what was presented.
      const token = bearer(c);
      if (a.status !== 401 || !token) return;
      a.headers['www-authenticate'] = `Bearer error="invalid_token", presented="${token}"`;
    },
  },
  {
    name: 'replay-body-written-twice',
    statement:
      'Success envelope (every JSON success response): ok, data, meta (POST /connections: the same response again)',
    answer(c, a) {
      // The replay path writes the stored body and then falls through to the normal writer, which
      // writes it again on the same response.
      if (!isCreate(c) || !ok(a) || a.json.meta?.replayed !== true) return;
      const text = JSON.stringify(a.json);
      a.raw = `${text}${text}`;
    },
  },
  {
    name: 'replayed-flag-sticks-to-next-read',
    statement: 'Meta: replayed — boolean, no: true when the response comes from an earlier identical operation',
    answer(c, a) {
      // The replay marker lives in a per-worker context that is reset only by the next write; the next
      // read of the same tenant is reported as a replay.
      const tenant = c.headers['x-service-tenant'] ?? home(c) ?? '';
      if (isCreate(c) && ok(a)) {
        c.memory.set(`r26-replayed:${tenant}`, a.json.meta?.replayed === true);
        return;
      }
      if (c.method !== 'GET' || !ok(a) || !a.json.meta) return;
      if (c.memory.get(`r26-replayed:${tenant}`) !== true) return;
      c.memory.set(`r26-replayed:${tenant}`, false);
      a.json.meta.replayed = true;
    },
  },
];
